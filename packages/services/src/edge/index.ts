/** The request edge shared by every surface: route limits, the JSON reader, the bounded body reader. */
export { capBodyBytes, edgeLimits, NO_BODY_LIMITS, SMALL_JSON_LIMITS, type TEdgeLimits } from './limits.ts';
export {
  assertJsonShape,
  assertStorableText,
  assertUtf8Charset,
  bodyTimedOut,
  bodyTooLarge,
  decodeUtf8Body,
  firstInvalidUtf8Offset,
  LARGE_BODY_BYTES,
  readJsonBody,
  unstorableCodePoint,
  type TJsonShapeOptions,
  type TReadJsonOptions,
} from './json-reader.ts';
export { readRequestBytes, readRequestJson } from './read-body.ts';
