/**
 * What a form needs from a failed procedure call (client-safe): the field messages of the server's
 * zod check, and the services' error code with its details, mapped to the portal's messages.
 */
import { TRPCClientError } from '@trpc/client';
import { CERTIFICATE_CHECK_ERRORS } from '@ecf/contract';
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

/**
 * Codes whose catalogue sentence is the form's message even when fields are marked (the page's
 * words are the catalogue's: `ERROR_CODE_TEXTS`, one text per code).
 */
const FORM_LEVEL_CODES = [
  'ALREADY_MEMBER',
  'LAST_OWNER',
  'INVITATION_INVALID',
  'INVITATION_EXPIRED',
  'INVITATION_ALREADY_ACCEPTED',
  'INVITATION_EMAIL_MISMATCH',
  'ACCOUNT_EXISTS',
  'PASSWORD_RESET_INVALID',
  'PASSWORD_RESET_EXPIRED',
  'TOO_MANY_ATTEMPTS',
  'FORBIDDEN',
  'NO_ACTIVE_TENANT',
  'SESSION_INVALID',
  'NOT_FOUND',
  ...CERTIFICATE_CHECK_ERRORS,
  'ANECF_RANGE_RESERVED',
  'ANECF_INVALID',
  'ANECF_NOT_AVAILABLE_IN_CERTECF',
  'ANECF_IDEMPOTENCY_CONFLICT',
  'ANECF_NOT_UNCERTAIN',
  'ANECF_RECONCILIATION_CONFLICT',
  'CERTIFICATE_NOT_ACTIVE',
  'SEQUENCE_RANGE_OVERLAP',
  'SEQUENCE_RANGE_INVALID',
  'CERTIFICATION_ENVIRONMENT_REQUIRED',
  'INVALID_CERTIFICATION_REQUEST',
  'CERTIFICATION_PART_INVALID',
  'CERTIFICATION_SET_INVALID',
  'CERTIFICATION_SIMULATION_NOT_READY',
  'CERTIFICATION_RUN_IN_PROGRESS',
  'CERTIFICATION_APPROVED',
  'CERTIFICATION_MANAGED_BY_PARTNER',
  'CERTIFICATION_PREREQUISITES_MISSING',
  'CERTIFICATION_NOT_APPROVED',
  'CERTIFICATION_DOCUMENT_NOT_RESENDABLE',
  'CERTIFICATION_DATA_TESTS_PENDING',
  'COMMERCIAL_APPROVAL_SET_REQUIRED',
  'COMMERCIAL_APPROVAL_SET_INVALID',
  'COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER',
  'COMMERCIAL_APPROVALS_IN_PROGRESS',
  'INVALID_JSON',
  'BODY_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'UNSUPPORTED_CONTENT_TYPE',
  'ROUTE_NOT_FOUND',
] as const satisfies readonly (keyof typeof ERROR_CODE_TEXTS)[];

/** The portal's words for the services' error codes a page may meet (Spanish, never revealing). */
export const APP_ERROR_MESSAGES: Record<string, string> = {
  ...Object.fromEntries(FORM_LEVEL_CODES.map((code) => [code, ERROR_CODE_TEXTS[code]])),
  // A form says more than the catalogue's sentence for these.
  ANECF_DOCUMENT_CONFLICT:
    'Hay e-CF en estos rangos que ya salieron (o pudieron salir) hacia la DGII o el comprador: vea la tabla. Anule solo los números libres.',
  CERTIFICATION_SET_ISSUER_MISMATCH:
    'El set es de otro contribuyente: sus filas no son para el RNC de esta cuenta. Descargue el suyo en el portal de la DGII.',
  CERTIFICATION_OWN_SET_REQUIRED:
    'El modelo de la DGII es para la simulación, después de que la DGII acepte las aprobaciones comerciales; las pruebas de datos usan el libro que la DGII generó para su RNC.',
  CERTIFICATION_SET_ALREADY_USED:
    'Este set ya se envió y sus e-NCF quedaron usados para siempre: descargue un set nuevo en el portal de la DGII.',
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
