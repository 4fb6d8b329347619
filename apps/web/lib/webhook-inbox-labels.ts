/** The portal's words for a test inbox's signature check (reasons of `checkWebhookSignature`). */
export const WEBHOOK_SIGNATURE_REASON_TEXTS = {
  missing_header: 'La solicitud no trae la cabecera Svc-Signature.',
  malformed_header:
    'La cabecera Svc-Signature no tiene la forma t=<segundos>,v1=<firma>: falta t, está repetida o no es un número.',
  timestamp_out_of_tolerance:
    'La marca de tiempo t se aleja más de 5 minutos de la hora de recepción: un receptor debe rechazarla.',
  no_matching_signature:
    'Ninguna firma v1 coincide con el HMAC-SHA256 de «t.cuerpo» calculado con el secreto del endpoint: el cuerpo cambió o se firmó con otro secreto.',
  body_truncated: 'El cuerpo pasó de 64 KiB y no se guardó completo: no se puede comprobar la firma.',
} as const;

/** Why a valid signature is valid, for the person reading it. */
export function validSignatureText(signature: {
  secret: 'current' | 'previous' | null;
  skewSeconds: number | null;
}): string {
  const secret =
    signature.secret === 'previous'
      ? 'el secreto anterior del endpoint (rotación)'
      : 'el secreto del endpoint';
  const skew = signature.skewSeconds === null ? null : Math.abs(signature.skewSeconds);
  return `Una firma v1 coincide con el HMAC-SHA256 de «t.cuerpo» calculado con ${secret}${
    skew === null ? '' : `, y t está a ${skew} ${skew === 1 ? 'segundo' : 'segundos'} de la hora de recepción`
  }.`;
}
