/**
 * Shapes of the element-order tables generated from the official XSDs
 * (`xsd-order.generated.ts`, written by `scripts/generate-xsd-order.ts`).
 */

/** One child element declared in an `xs:sequence`, in schema order. */
export type TXsdChild = {
  readonly name: string;
  readonly minOccurs: number;
  /** `Number.POSITIVE_INFINITY` for `unbounded` (no official schema uses it today). */
  readonly maxOccurs: number;
  /** True when the child has children of its own (an inline `xs:complexType`). */
  readonly isComplex: boolean;
  /** The schema's simple type name for leaves, as written in the XSD. */
  readonly type?: string;
};

/** One official schema: its root and the ordered children of every complex element. */
export type TXsdOrderTable = {
  readonly file: string;
  readonly root: string;
  /**
   * The trailing `xs:any` of the root, through which the schemas admit `<Signature>`;
   * `minOccurs` 1 means an unsigned document does not validate.
   */
  readonly trailingAny?: { readonly minOccurs: number; readonly maxOccurs: number };
  /** Keyed by slash-separated element path from the root (`ECF/Encabezado/IdDoc`). */
  readonly elements: { readonly [elementPath: string]: ReadonlyArray<TXsdChild> };
};

/** Every generated table, keyed `E31` … `E47`, `RFCE`, `ACECF`, `ARECF`, `ANECF`. */
export type TXsdOrderTables = { readonly [key: string]: TXsdOrderTable };
