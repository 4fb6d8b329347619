/**
 * What a form needs from a failed procedure call (client-safe): the field messages of the server's
 * zod check, and the services' error code with its details, mapped to the portal's messages.
 */
import { TRPCClientError } from '@trpc/client';
import { ERROR_CODE_TEXTS, WEBHOOK_FAILURE_TEXTS } from './catalogue.ts';

export type TProcedureFailure = {
  appCode: string | null;
  details: Record<string, unknown> | null;
  fieldErrors: Record<string, string>;
  /** tRPC's code: NOT_FOUND, FORBIDDEN, UNAUTHORIZED, CONFLICT, TOO_MANY_REQUESTS... */
  code: string | null;
  message: string;
};

/** The request edge's words for a refused field (server/trpc/http.ts: `details.reason` and `path`). */
const EDGE_FIELD_MESSAGES: Record<string, string> = {
  unsupported_character:
    'Contiene un carácter no admitido (por ejemplo U+0000). Bórrelo y vuelva a intentarlo.',
  string_too_long: 'El texto es demasiado largo.',
  array_too_long: 'Hay demasiados elementos.',
};

/** A refusal of the request edge that names one field (`details.path`), as that field's message. */
function edgeFieldErrorOf(
  appCode: string | null,
  details: Record<string, unknown> | null,
): Record<string, string> {
  const reason = typeof details?.reason === 'string' ? details.reason : '';
  const message = EDGE_FIELD_MESSAGES[reason];
  if (appCode !== 'INVALID_REQUEST' || message === undefined || typeof details?.path !== 'string') return {};
  return { [details.path || 'form']: message };
}

export function failureOf(error: unknown): TProcedureFailure {
  if (error instanceof TRPCClientError) {
    const data = (error as TRPCClientError<never>).data as
      | {
          appCode?: string | null;
          details?: Record<string, unknown> | null;
          fieldErrors?: Record<string, string> | null;
          code?: string;
        }
      | undefined;
    return {
      appCode: data?.appCode ?? null,
      details: data?.details ?? null,
      fieldErrors: {
        ...edgeFieldErrorOf(data?.appCode ?? null, data?.details ?? null),
        ...data?.fieldErrors,
      },
      code: data?.code ?? null,
      message: error.message,
    };
  }
  return { appCode: null, details: null, fieldErrors: {}, code: null, message: String(error) };
}

/** The portal's words for the services' error codes a page may meet (Spanish, never revealing). */
export const APP_ERROR_MESSAGES: Record<string, string> = {
  ALREADY_MEMBER: 'Esa dirección ya pertenece a un miembro de la cuenta.',
  LAST_OWNER: 'La cuenta necesita al menos un propietario.',
  INVITATION_INVALID: 'Este enlace de invitación no es válido o fue reemplazado.',
  INVITATION_EXPIRED: 'Este enlace de invitación venció. Pida una invitación nueva.',
  INVITATION_ALREADY_ACCEPTED: 'Esta invitación ya fue aceptada.',
  INVITATION_EMAIL_MISMATCH: 'Esta invitación es para otra dirección de correo.',
  ACCOUNT_EXISTS: 'Esa dirección ya tiene una cuenta: inicie sesión para aceptar.',
  PASSWORD_RESET_INVALID: 'Este enlace no es válido o ya se usó. Pida uno nuevo.',
  PASSWORD_RESET_EXPIRED: 'Este enlace venció. Pida uno nuevo.',
  TOO_MANY_ATTEMPTS: 'Demasiados intentos. Espere un momento antes de volver a intentarlo.',
  FORBIDDEN: 'Su rol no permite esta acción.',
  NO_ACTIVE_TENANT: 'Elija primero una cuenta.',
  SESSION_INVALID: 'Su sesión terminó. Inicie sesión de nuevo.',
  NOT_FOUND: 'No se encontró.',
  CERTIFICATE_PASSWORD_INVALID: 'La contraseña no abre este certificado.',
  CERTIFICATE_FILE_INVALID: 'El archivo no es un certificado PKCS#12 (.p12 o .pfx) legible con llave RSA.',
  CERTIFICATE_PRIVATE_KEY_MISSING: 'El archivo no contiene la llave privada del certificado.',
  CERTIFICATE_KEY_PAIR_NOT_FOUND: 'El archivo no contiene el certificado que corresponde a su llave privada.',
  CERTIFICATE_HOLDER_ID_MISSING:
    'El certificado no indica el RNC, la cédula o el pasaporte de su titular (atributo serialNumber).',
  CERTIFICATE_KEY_USAGE_INVALID:
    'El certificado no sirve para firmar: su uso de llave no incluye firma digital ni no repudio.',
  CERTIFICATE_EXPIRED: 'El certificado está vencido.',
  CERTIFICATE_NOT_YET_VALID: 'El certificado aún no es válido: su vigencia no ha empezado.',
  ANECF_DOCUMENT_CONFLICT:
    'Hay e-CF en estos rangos que ya salieron (o pudieron salir) hacia la DGII o el comprador: vea la tabla. Anule solo los números libres.',
  ANECF_RANGE_RESERVED: 'Otra anulación ya incluye alguno de estos e-NCF.',
  ANECF_INVALID: 'Revise los rangos marcados.',
  ANECF_NOT_AVAILABLE_IN_CERTECF: 'Las anulaciones no existen en CerteCF: pruébelas en TesteCF.',
  ANECF_IDEMPOTENCY_CONFLICT: 'Esta solicitud ya se usó con otros rangos. Prevalide de nuevo.',
  ANECF_NOT_UNCERTAIN: 'Solo se concilia una anulación incierta.',
  ANECF_RECONCILIATION_CONFLICT: 'Esta anulación ya fue conciliada con otro resultado o evidencia.',
  CERTIFICATE_NOT_ACTIVE: 'La cuenta no tiene un certificado de firma activo: instálelo en Certificado.',
  SEQUENCE_RANGE_OVERLAP: 'El rango se solapa con otro registrado del mismo tipo.',
  SEQUENCE_RANGE_INVALID: 'Revise el rango.',
  CERTIFICATION_ENVIRONMENT_REQUIRED: 'La certificación se hace en CerteCF.',
  INVALID_CERTIFICATION_REQUEST: 'El libro no se pudo leer. Elija el archivo otra vez.',
  CERTIFICATION_PART_INVALID: 'Elija la parte: pruebas de datos o simulación.',
  CERTIFICATION_SET_INVALID:
    'El set no se puede ejecutar: vea cada problema con su hoja, fila y columna. No se guardó nada.',
  CERTIFICATION_SET_ISSUER_MISMATCH:
    'El set es de otro contribuyente: sus filas no son para el RNC de esta cuenta. Descargue el suyo en el portal de la DGII.',
  CERTIFICATION_OWN_SET_REQUIRED:
    'El modelo de la DGII es para la simulación, después de que la DGII acepte las aprobaciones comerciales; las pruebas de datos usan el libro que la DGII generó para su RNC.',
  CERTIFICATION_SIMULATION_NOT_READY:
    'La simulación viene después de que la DGII acepte las pruebas de datos y las aprobaciones comerciales.',
  CERTIFICATION_SET_ALREADY_USED:
    'Este set ya se envió y sus e-NCF quedaron usados para siempre: descargue un set nuevo en el portal de la DGII.',
  CERTIFICATION_RUN_IN_PROGRESS: 'Hay una corrida en curso: espere a que termine o reinicie su parte.',
  CERTIFICATION_APPROVED: 'La certificación está aprobada: no queda nada por ejecutar.',
  CERTIFICATION_MANAGED_BY_PARTNER: 'La certificación de esta cuenta la gestiona su proveedor.',
  CERTIFICATION_PREREQUISITES_MISSING: 'Antes hay que completar los pasos anteriores.',
  CERTIFICATION_NOT_APPROVED: 'La producción se solicita después de la declaración jurada (paso 13).',
  CERTIFICATION_DOCUMENT_NOT_RESENDABLE: 'La DGII ya resolvió este comprobante: no hay nada que reenviar.',
  CERTIFICATION_DATA_TESTS_PENDING:
    'Las aprobaciones comerciales se envían después de que la DGII acepte las pruebas de datos.',
  COMMERCIAL_APPROVAL_SET_REQUIRED: 'Elija el libro de aprobaciones comerciales (.xlsx).',
  COMMERCIAL_APPROVAL_SET_INVALID:
    'El libro de aprobaciones comerciales no se puede enviar: vea cada problema con su hoja, fila y columna.',
  COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER:
    'El libro de aprobaciones comerciales responde a documentos de otro comprador: descargue el de su RNC.',
  COMMERCIAL_APPROVALS_IN_PROGRESS: 'Hay un envío de aprobaciones comerciales en curso.',
  // The request edge (server/trpc/http.ts): what was sent could not be read as it came.
  INVALID_JSON: 'Lo enviado no se pudo leer. Recargue la página e inténtelo de nuevo.',
  BODY_TOO_LARGE: 'Lo enviado es demasiado grande.',
  REQUEST_TIMEOUT: 'Lo enviado tardó demasiado en llegar. Inténtelo de nuevo.',
  UNSUPPORTED_CONTENT_TYPE: 'Lo enviado no se pudo leer. Recargue la página e inténtelo de nuevo.',
  ROUTE_NOT_FOUND: 'Esta acción no existe. Recargue la página.',
};

/** A refused webhook URL says why (`details.code`, the transport's rule), in the catalogue's words. */
function webhookUrlMessageOf(details: Record<string, unknown> | null): string | null {
  if (details?.['reason'] !== 'webhook_url_not_allowed') return null;
  const code = typeof details['code'] === 'string' ? details['code'] : '';
  return Object.hasOwn(WEBHOOK_FAILURE_TEXTS, code)
    ? `No se pudo guardar el endpoint. ${WEBHOOK_FAILURE_TEXTS[code as keyof typeof WEBHOOK_FAILURE_TEXTS]}.`
    : null;
}

/**
 * The message to show for a failure that no field claims: the page's own words for its code, else
 * the catalogue's sentence for any code of the error registry (never a raw code or English).
 */
export function formMessageOf(failure: TProcedureFailure): string {
  const webhookUrl = webhookUrlMessageOf(failure.details);
  if (webhookUrl !== null) return webhookUrl;
  if (failure.appCode !== null && APP_ERROR_MESSAGES[failure.appCode] !== undefined)
    return APP_ERROR_MESSAGES[failure.appCode] ?? '';
  if (Object.keys(failure.fieldErrors).length > 0) return 'Revise los campos marcados.';
  if (failure.appCode !== null && Object.hasOwn(ERROR_CODE_TEXTS, failure.appCode))
    return ERROR_CODE_TEXTS[failure.appCode as keyof typeof ERROR_CODE_TEXTS];
  return 'No se pudo completar la acción. Inténtelo de nuevo.';
}
