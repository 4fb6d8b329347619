import { z } from 'zod';
import { ZCertificate } from './certificate.schema.ts';

/** The largest PKCS#12 accepted, as the use-case's CERTIFICATE_FILE_MAX_BYTES (64 KiB). */
export const CERTIFICATE_FILE_MAX_BYTES = 64 * 1024;
const MAX_BASE64_LENGTH = Math.ceil(CERTIFICATE_FILE_MAX_BYTES / 3) * 4;

/**
 * The upload: the PKCS#12 file as base64 inside the JSON mutation (mutations are JSON only) and its
 * password. Neither is ever logged, echoed or written to the audit log.
 */
export const ZUploadCertificateInput = z.object({
  p12Base64: z
    .string({ error: 'Elija el archivo del certificado (.p12 o .pfx).' })
    .min(1, 'Elija el archivo del certificado (.p12 o .pfx).')
    .max(MAX_BASE64_LENGTH, 'El archivo pasa de 64 KiB: no es un certificado PKCS#12 de firma.')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'El archivo no se pudo leer.'),
  password: z
    .string({ error: 'Escriba la contraseña del certificado.' })
    .min(1, 'Escriba la contraseña del certificado.')
    .max(1024, 'La contraseña es demasiado larga.'),
});

export const ZUploadCertificateOutput = ZCertificate;
