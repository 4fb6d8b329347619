/**
 * THE portal's words (issue 27, "Plain Spanish"): every code the portal can show (error codes of
 * the contract's registry, keyed by its `TErrorCode`, statuses, event types, audit actions, delivery outcomes, validation and
 * workbook codes) mapped to a Spanish label and, where useful, a sentence. Pages never show a raw
 * code: they look it up here (`labelOf`), and raw text a system wrote (the tax authority's HTML
 * error page, a library's English message) goes behind `TechnicalDetails` of `@ecf/ui` with a
 * sentence from here in front. Client-safe: only type imports from the server packages.
 *
 * `catalogue.test.ts` walks every section against its source of truth (the error registry, the
 * Prisma enums, the event-type lists, the audit actions, the delivery outcomes, fiscal-core's
 * validation codes) and fails on any code without a Spanish text.
 */
import type {
  AnnulmentState,
  CertificationCaseState,
  CertificationRunState,
  DocumentStatus,
  InboundStatus,
  MemberRole,
  ProductionState,
  ReceiverDeliveryStatus,
  WebhookAttemptOutcome,
  WebhookDeliveryStatus,
  WebhookEndpointStatus,
} from '@ecf/db';
import type { TErrorCode, TSubmissionErrorCode, TSubmissionWarningCode } from '@ecf/contract';
import type {
  TAuditAction,
  TWebhookDeliveryErrorCode,
  TWebhookEventType,
  TWorkbookErrorCode,
  TXmlIssueCode,
} from '@ecf/services';
import type { TStatusTone } from '@ecf/ui';
import { ANNULMENT_STATUS_LABELS, CONFLICT_REASON_LABELS } from './annulment-schemas.ts';
import {
  CASE_STATE_LABELS,
  ITEM_STATE_LABELS,
  PRODUCTION_STATE_LABELS,
  RUN_STATE_LABELS,
  STEP_STATE_LABELS,
} from './certification-schemas.ts';
import { ROLE_LABELS } from './schemas.ts';

export {
  ANNULMENT_STATUS_LABELS,
  CASE_STATE_LABELS,
  CONFLICT_REASON_LABELS,
  ITEM_STATE_LABELS,
  PRODUCTION_STATE_LABELS,
  ROLE_LABELS,
  RUN_STATE_LABELS,
  STEP_STATE_LABELS,
};

// ---------------------------------------------------------------------------------------------
// Looking up

/** What a page shows for a code nothing in the catalogue names (a test keeps this from happening). */
export const UNKNOWN_CODE_TEXT = 'Sin descripción';

/** The Spanish text of `code` in `section`; never the raw code (`UNKNOWN_CODE_TEXT` instead). */
export function labelOf(section: Readonly<Record<string, string>>, code: string | null | undefined): string {
  if (code === null || code === undefined || code === '') return '—';
  return Object.hasOwn(section, code) ? (section[code] ?? UNKNOWN_CODE_TEXT) : UNKNOWN_CODE_TEXT;
}

// ---------------------------------------------------------------------------------------------
// The services' error registry (ERROR_STATUS): what a person is told when a request is refused.

export const ERROR_CODE_TEXTS: Record<TErrorCode, string> = {
  INVALID_JSON: 'Lo enviado no se pudo leer. Recargue la página e inténtelo de nuevo.',
  INVALID_REQUEST: 'Revise los datos enviados: alguno no tiene el formato esperado.',
  UNSUPPORTED_CONTENT_TYPE: 'Lo enviado no se pudo leer. Recargue la página e inténtelo de nuevo.',
  BODY_TOO_LARGE: 'Lo enviado es demasiado grande.',
  REQUEST_HEADERS_TOO_LARGE: 'La solicitud es demasiado grande.',
  REQUEST_TIMEOUT: 'Lo enviado tardó demasiado en llegar. Inténtelo de nuevo.',
  INVALID_DOCUMENT_REFERENCE: 'La referencia no es un e-NCF ni un identificador de documento.',
  INVALID_ISSUED_DOCUMENTS_QUERY: 'Revise los filtros de la lista de documentos.',
  API_KEY_MISSING: 'Falta la clave de API.',
  API_KEY_INVALID: 'La clave de API no existe o fue revocada.',
  INSUFFICIENT_SCOPE: 'La clave de API no tiene permiso para esta operación o es de otro ambiente.',
  ROUTE_NOT_FOUND: 'Esta acción no existe. Recargue la página.',
  NOT_FOUND: 'No se encontró.',
  ENCF_CONFLICT: 'Ese e-NCF ya pertenece a otro documento con contenido distinto.',
  DOCUMENT_NOT_SIGNED: 'El documento todavía no está firmado.',
  RI_AWAITING_TAXAUTH_RESPONSE: 'La DGII todavía no ha respondido: la representación impresa aún no existe.',
  RI_NOT_DELIVERABLE_REJECTED: 'La DGII rechazó el documento: no tiene representación impresa.',
  RI_NOT_DELIVERABLE_NOT_TRANSMITTED: 'El documento no se transmitió: no tiene representación impresa.',
  RI_NOT_DELIVERABLE_CANCELLED: 'El documento fue anulado: no tiene representación impresa.',
  VALIDATION_FAILED: 'El documento tiene errores: revíselos campo por campo.',
  PRODUCTION_NOT_ACTIVE: 'La producción (eCF) de la cuenta no está activa todavía.',
  RATE_LIMIT_EXCEEDED: 'Demasiadas solicitudes seguidas. Espere un momento y vuelva a intentarlo.',
  SERVICE_UNAVAILABLE: 'El servicio está ocupado en este momento. Inténtelo de nuevo en unos segundos.',
  INTERNAL_ERROR: 'Ocurrió un error inesperado. Inténtelo de nuevo; si se repite, contacte a soporte.',
  CERTIFICATE_NOT_ACTIVE: 'La cuenta no tiene un certificado de firma activo: instálelo en Certificado.',
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
  CERTIFICATE_DECRYPTION_FAILED: 'El certificado guardado no se pudo abrir. Contacte a soporte.',
  RECEIVER_DELIVERY_NOT_UNCERTAIN: 'Solo se concilia una entrega al receptor incierta.',
  RECEIVER_DELIVERY_OUTCOME_CONFLICT: 'Esta entrega ya fue conciliada con otro resultado.',
  RECEIVER_DELIVERY_EVIDENCE_INVALID: 'La evidencia no es un ARECF firmado de este documento.',
  NOT_ACCEPTABLE: 'El formato pedido no está disponible.',
  RI_LINK_INVALID: 'Este enlace no es válido.',
  RI_NOT_DELIVERABLE: 'Este documento no tiene representación impresa.',
  RI_LINK_EXPIRED: 'Este enlace venció.',
  INVALID_CREDENTIALS: 'El correo o la contraseña no son correctos.',
  TOO_MANY_ATTEMPTS: 'Demasiados intentos. Espere un momento antes de volver a intentarlo.',
  SESSION_INVALID: 'Su sesión terminó. Inicie sesión de nuevo.',
  FORBIDDEN: 'Su rol no permite esta acción.',
  NO_ACTIVE_TENANT: 'Elija primero una cuenta.',
  INVITATION_INVALID: 'Este enlace de invitación no es válido o fue reemplazado.',
  INVITATION_EXPIRED: 'Este enlace de invitación venció. Pida una invitación nueva.',
  INVITATION_ALREADY_ACCEPTED: 'Esta invitación ya fue aceptada.',
  INVITATION_EMAIL_MISMATCH: 'Esta invitación es para otra dirección de correo.',
  ACCOUNT_EXISTS: 'Esa dirección ya tiene una cuenta: inicie sesión para aceptar.',
  ALREADY_MEMBER: 'Esa dirección ya pertenece a un miembro de la cuenta.',
  LAST_OWNER: 'La cuenta necesita al menos un propietario.',
  PASSWORD_RESET_INVALID: 'Este enlace no es válido o ya se usó. Pida uno nuevo.',
  PASSWORD_RESET_EXPIRED: 'Este enlace venció. Pida uno nuevo.',
  WEBHOOK_REPLAY_NOT_ALLOWED: 'Solo se reenvía una entrega fallida de un endpoint activo.',
  WEBHOOK_ENDPOINT_RETIRED: 'Este endpoint fue eliminado.',
  WEBHOOK_ROTATION_IN_PROGRESS:
    'Hay una rotación del secreto en curso: espere a que termine su periodo de convivencia.',
  ANECF_INVALID: 'Revise los rangos marcados.',
  ANECF_NOT_AVAILABLE_IN_CERTECF: 'Las anulaciones no existen en CerteCF: pruébelas en TesteCF.',
  ANECF_DOCUMENT_CONFLICT:
    'Hay e-CF en estos rangos que ya salieron (o pudieron salir) hacia la DGII o el comprador. Anule solo los números libres.',
  ANECF_IDEMPOTENCY_KEY_REQUIRED: 'Falta la clave de idempotencia de la anulación.',
  ANECF_IDEMPOTENCY_CONFLICT: 'Esta solicitud ya se usó con otros rangos. Prevalide de nuevo.',
  ANECF_RANGE_RESERVED: 'Otra anulación ya incluye alguno de estos e-NCF.',
  ANECF_NOT_UNCERTAIN: 'Solo se concilia una anulación incierta.',
  ANECF_RECONCILIATION_CONFLICT: 'Esta anulación ya fue conciliada con otro resultado o evidencia.',
  SEQUENCE_RANGE_INVALID: 'Revise el rango.',
  SEQUENCE_RANGE_OVERLAP: 'El rango se solapa con otro registrado del mismo tipo.',
  ENCF_ANNULLED: 'Ese e-NCF está en un rango anulado.',
  INVALID_RECEIVED_DOCUMENTS_QUERY: 'Revise los filtros de la lista de recibidos.',
  RECEIVED_DOCUMENT_NOT_FOUND: 'No se encontró el e-CF recibido.',
  RECEIVED_DOCUMENT_XML_NOT_AVAILABLE: 'El XML de este e-CF recibido no se guardó (su firma no se verificó).',
  RECEIVED_COMMERCIAL_APPROVAL_NOT_FOUND: 'No se encontró la aprobación comercial recibida.',
  RECEIVED_COMMERCIAL_APPROVAL_XML_NOT_AVAILABLE: 'El XML de esta aprobación comercial no se guardó.',
  RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED:
    'El XML guardado no coincide con su huella SHA-256. Contacte a soporte.',
  COMMERCIAL_APPROVAL_DECISION_CONFLICT: 'Ya se envió otra decisión para este e-CF.',
  COMMERCIAL_APPROVAL_DATE_INVALID: 'Revise la fecha de la aprobación comercial.',
  ACECF_TAXAUTH_SUBMISSION_UNCERTAIN:
    'No se sabe si la DGII recibió la aprobación comercial: concíliela con su respuesta.',
  RECEIVED_ECF_NOT_VALID_IN_TAXAUTH: 'La DGII no tiene este e-CF como válido: no se puede aprobar.',
  ACECF_TAXAUTH_REJECTED: 'La DGII rechazó la aprobación comercial.',
  ACECF_TARGET_URL_NOT_ALLOWED: 'La dirección del emisor no está permitida.',
  ACECF_DISPATCH_NOT_RECEIVED: 'El emisor no recibió la aprobación comercial.',
  ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE:
    'No hay un certificado activo para autenticarse ante la DGII: instálelo en Certificado.',
  DIRECTORY_TAXAUTH_AUTH_FAILED: 'La DGII no aceptó la autenticación para consultar su directorio.',
  DIRECTORY_ACCESS_TOKEN_MISSING: 'Falta el acceso al directorio de la DGII.',
  ACECF_SIGNING_FAILED: 'La aprobación comercial no se pudo firmar.',
  COMMERCIAL_APPROVAL_NOT_UNCERTAIN: 'Solo se concilia una aprobación comercial incierta.',
  INVALID_CERTIFICATION_REQUEST: 'El libro no se pudo leer. Elija el archivo otra vez.',
  CERTIFICATION_PART_INVALID: 'Elija la parte: pruebas de datos o simulación.',
  COMMERCIAL_APPROVAL_SET_REQUIRED: 'Elija el libro de aprobaciones comerciales (.xlsx).',
  CERTIFICATION_OWN_SET_REQUIRED:
    'El modelo de la DGII es para la simulación; las pruebas de datos usan el libro que la DGII generó para su RNC.',
  CERTIFICATION_SET_ALREADY_USED:
    'Este set ya se envió y sus e-NCF quedaron usados: descargue un set nuevo en el portal de la DGII.',
  CERTIFICATION_DATA_TESTS_PENDING:
    'Las aprobaciones comerciales se envían después de que la DGII acepte las pruebas de datos.',
  COMMERCIAL_APPROVALS_IN_PROGRESS: 'Hay un envío de aprobaciones comerciales en curso.',
  CERTIFICATION_ENVIRONMENT_REQUIRED: 'La certificación se hace en CerteCF.',
  CERTIFICATION_MANAGED_BY_PARTNER: 'La certificación de esta cuenta la gestiona su proveedor.',
  CERTIFICATION_RUN_IN_PROGRESS: 'Hay una corrida en curso: espere a que termine o reinicie su parte.',
  CERTIFICATION_SIMULATION_NOT_READY:
    'La simulación viene después de que la DGII acepte las pruebas de datos y las aprobaciones comerciales.',
  CERTIFICATION_CASE_ALREADY_OPEN: 'Esta cuenta ya tiene una certificación abierta.',
  CERTIFICATION_XML_INVALID: 'El XML no es válido para este paso de la certificación.',
  CERTIFICATION_EMBED_EXPIRED: 'Este enlace de certificación venció. Pida uno nuevo a su proveedor.',
  IDEMPOTENCY_KEY_REQUIRED: 'Falta la clave de idempotencia.',
  CERTIFICATION_APPROVED: 'La certificación está aprobada: no queda nada por ejecutar.',
  IDEMPOTENCY_CONFLICT: 'Esta clave de idempotencia ya se usó con otro contenido.',
  CERTIFICATION_PREREQUISITES_MISSING: 'Antes hay que completar los pasos anteriores.',
  CERTIFICATION_NOT_APPROVED: 'La producción se solicita después de la declaración jurada (paso 13).',
  CERTIFICATION_DOCUMENT_NOT_RESENDABLE: 'La DGII ya resolvió este comprobante: no hay nada que reenviar.',
  CERTIFICATION_SET_INVALID:
    'El set no se puede ejecutar: vea cada problema con su hoja, fila y columna. No se guardó nada.',
  CERTIFICATION_SET_ISSUER_MISMATCH:
    'El set es de otro contribuyente: sus filas no son para el RNC de esta cuenta.',
  COMMERCIAL_APPROVAL_SET_INVALID:
    'El libro de aprobaciones comerciales no se puede enviar: vea cada problema con su hoja, fila y columna.',
  COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER:
    'El libro de aprobaciones comerciales responde a documentos de otro comprador: descargue el de su RNC.',
  RECEPTION_AUTHENTICATION_REQUIRED: 'La recepción exige autenticarse primero.',
  PARTNER_KEY_MISSING: 'Falta la clave Partner.',
  PARTNER_KEY_INVALID: 'La clave Partner no existe o fue revocada.',
  INVALID_PARTNER_PAYLOAD: 'Revise los datos enviados: alguno no tiene el formato esperado.',
  INVALID_BROWSER_ORIGIN: 'El origen no es válido: escriba https:// y el dominio, sin ruta.',
  BROWSER_ORIGIN_NOT_ALLOWED: 'Ese origen no está registrado.',
  PAYMENT_REQUIRED: 'La cuenta tiene un pago pendiente.',
  PARTNER_INACTIVE: 'El Partner está inactivo.',
  FISCAL_ACCOUNT_NOT_FOUND: 'No se encontró la cuenta fiscal.',
  RNC_NOT_AVAILABLE: 'Ese RNC ya tiene una cuenta.',
  ACCOUNT_LINK_CONFLICT: 'Esa cuenta ya está vinculada con otro identificador.',
  RNC_CHANGE_REQUIRES_RECERTIFICATION: 'Cambiar el RNC exige certificarse de nuevo.',
  PRODUCTION_STATE_CONFLICT: 'El estado de producción no permite este cambio.',
  RNC_NOT_IN_TAXAUTH_REGISTRY: 'El RNC no aparece en el registro de contribuyentes de la DGII.',
  RNC_NOT_ACTIVE_IN_TAXAUTH: 'El RNC no está activo en la DGII.',
  PLAN_LIMIT_EXCEEDED: 'Se alcanzó el límite de comprobantes del plan este mes.',
  UPLOAD_SESSION_INVALID: 'Esta sesión de carga no es válida.',
  UPLOAD_SESSION_EXPIRED: 'Esta sesión de carga venció. Pida una nueva.',
  UPLOAD_SESSION_EXHAUSTED: 'Se agotaron los intentos de esta sesión de carga. Pida una nueva.',
  UPLOAD_ORIGIN_MISMATCH: 'La carga viene de un origen distinto al de la sesión.',
};

// ---------------------------------------------------------------------------------------------
// Issued documents

export const DOCUMENT_STATUS_LABELS: Record<string, string> = {
  queued_for_signing: 'En cola para firma',
  signed: 'Firmado',
  sent: 'Enviado a la DGII',
  contingency: 'En contingencia',
  accepted: 'Aceptado',
  accepted_conditional: 'Aceptado condicional',
  rejected: 'Rechazado',
  cancelled: 'Anulado',
  transmission_failed: 'Envío fallido',
} satisfies Record<DocumentStatus, string>;

export const DOCUMENT_STATUS_TONES: Record<string, TStatusTone> = {
  queued_for_signing: 'neutral',
  signed: 'info',
  sent: 'info',
  contingency: 'warning',
  accepted: 'success',
  accepted_conditional: 'success',
  rejected: 'danger',
  cancelled: 'neutral',
  transmission_failed: 'danger',
} satisfies Record<DocumentStatus, TStatusTone>;

export const ECF_TYPE_LABELS: Record<string, string> = {
  E31: 'Factura de Crédito Fiscal',
  E32: 'Factura de Consumo',
  E33: 'Nota de Débito',
  E34: 'Nota de Crédito',
  E41: 'Compras',
  E43: 'Gastos Menores',
  E44: 'Regímenes Especiales',
  E45: 'Gubernamental',
  E46: 'Exportaciones',
  E47: 'Pagos al Exterior',
};

/** The short names of the types, for tables and dense places (`ecfTypeLabel`). */
export const ECF_TYPE_SHORT_LABELS: Record<string, string> = {
  E31: 'Crédito fiscal',
  E32: 'Consumo',
  E33: 'Nota de débito',
  E34: 'Nota de crédito',
  E41: 'Compras',
  E43: 'Gastos menores',
  E44: 'Regímenes especiales',
  E45: 'Gubernamental',
  E46: 'Exportaciones',
  E47: 'Pagos al exterior',
};

/** Every event type of a document's log (its status changes included). */
export const EVENT_LABELS: Record<string, string> = {
  submitted: 'Recibido por el servicio',
  signed: 'Firmado',
  signing_deferred: 'Firma aplazada',
  signing_failed: 'Firma fallida',
  transmission_attempt: 'Intento de envío a la DGII',
  transmission_outcome: 'Resultado del envío',
  status_poll_failed: 'Consulta de estado fallida',
  operator_notified: 'Operador notificado (72 h)',
  sweep_requeued: 'Vuelto a poner en cola por el servicio',
  queued_for_signing: 'En cola para firma',
  sent: 'Enviado a la DGII (TrackId recibido)',
  contingency: 'En contingencia',
  accepted: 'Aceptado por la DGII',
  accepted_conditional: 'Aceptado condicional por la DGII',
  rejected: 'Rechazado por la DGII',
  cancelled: 'Anulado',
  transmission_failed: 'Envío fallido',
  receiver_delivery_attempt: 'Entrega al receptor: intento',
  receiver_delivery_outcome: 'Entrega al receptor: resultado',
  receiver_delivery_not_applicable: 'Entrega al receptor: no aplica',
  receiver_delivery_deferred: 'Entrega al receptor: aplazada',
  receiver_delivery_reconciled: 'Entrega al receptor: conciliada',
  buyer_email_intent: 'Correo al comprador: intento',
  buyer_email_sent: 'Correo al comprador: enviado',
  buyer_email_failed: 'Correo al comprador: fallido',
  buyer_email_uncertain: 'Correo al comprador: resultado incierto',
};

/** `lastError.code` of a document (signing and transmission), as a sentence. */
export const DOCUMENT_PROBLEM_TEXTS: Record<string, string> = {
  TAXAUTH_UNAVAILABLE: 'La DGII no respondió. El documento espera en contingencia y se reintenta solo.',
  TAXAUTH_TIMEOUT: 'La DGII no respondió a tiempo. El documento se reintenta solo.',
  TAXAUTH_AUTH_UNAVAILABLE: 'El servicio de autenticación de la DGII no respondió. Se reintenta solo.',
  TAXAUTH_RECEPTION_REJECTED: 'La DGII rechazó el documento: vea sus mensajes.',
  TAXAUTH_CERTIFICATE_NOT_DELEGATED:
    'El titular del certificado no está delegado para este RNC en la DGII. Regístrelo en la Oficina Virtual de la DGII.',
  TAXAUTH_TRANSMISSION_FAILED: 'La DGII no aceptó el envío y no se reintentará.',
  CERTIFICATE_NOT_ACTIVE: 'La cuenta no tiene un certificado de firma activo: instálelo en Certificado.',
  SIGNING_CERTIFICATE_UNAVAILABLE: 'El certificado de firma no se pudo usar. Se reintentará.',
  SIGNING_PAYLOAD_INVALID: 'El documento guardado no se pudo leer para firmarlo. Contacte a soporte.',
  SIGNING_XML_INVALID: 'El XML firmado no cumple el esquema de la DGII. Contacte a soporte.',
  UNKNOWN: 'Ocurrió un problema con este documento.',
};

/** What an attempt to send to the tax authority came to (`outcome` of `transmission_outcome`). */
export const TRANSMISSION_OUTCOME_LABELS: Record<string, string> = {
  received: 'Recibido por la DGII',
  accepted: 'Aceptado',
  accepted_conditional: 'Aceptado condicional',
  rejected: 'Rechazado',
  failed: 'Fallido',
  not_received: 'No recibido',
  unknown: 'Sin resultado conocido',
};

export const PRINTING_STATUS_LABELS: Record<string, string> = {
  deliverable: 'Disponible',
  awaiting_signature: 'Esperando la firma',
  awaiting_taxauth_response: 'Esperando la respuesta de la DGII',
  not_deliverable_rejected: 'No disponible: rechazado',
  not_deliverable_not_transmitted: 'No disponible: no transmitido',
  not_deliverable_cancelled: 'No disponible: anulado',
};

export const EMAIL_OUTCOME_LABELS: Record<string, string> = {
  pending: 'En curso',
  sent: 'Enviado',
  failed: 'Fallido',
  uncertain: 'Incierto',
};

// ---------------------------------------------------------------------------------------------
// Delivery to the buyer's reception service (receiver delivery, ARECF)

export const DELIVERY_STATUS_LABELS: Record<string, string> = {
  pending: 'Pendiente',
  sending: 'Enviando',
  retry_scheduled: 'Reintento programado',
  sent: 'Entregado (ARECF recibido)',
  not_received: 'No recibido por el receptor',
  uncertain: 'Incierto',
  dispatch_failed: 'Envío fallido',
  not_applicable: 'No aplica',
} satisfies Record<ReceiverDeliveryStatus, string>;

/** Why there is nothing to deliver (`reason` of `receiver_delivery_not_applicable`). */
export const RECEIVER_NOT_APPLICABLE_LABELS: Record<string, string> = {
  type_not_exchanged: 'Este tipo de e-CF no se entrega al comprador',
  no_directory_in_certecf: 'En CerteCF no hay directorio de receptores',
  no_buyer_rnc: 'El documento no tiene RNC de comprador',
  not_in_directory: 'El comprador no está en el directorio de la DGII',
  no_reception_url: 'El comprador no publicó una dirección de recepción',
};

/** `lastError.code` of a receiver delivery, and the codes of its deferrals. */
export const RECEIVER_PROBLEM_TEXTS: Record<string, string> = {
  RECEIVER_DELIVERY_NOT_APPLICABLE: 'No hay nada que entregar al comprador.',
  RECEIVER_UNAVAILABLE: 'El servicio de recepción del comprador no respondió. Se reintenta solo.',
  RECEIVER_DELIVERY_UNCERTAIN:
    'No se supo si el comprador recibió el e-CF después de todos los reintentos: concílielo.',
  RECEIVER_NOT_RECEIVED: 'El comprador respondió que no recibió el e-CF (ARECF).',
  RECEIVER_AUTHENTICATION_FAILED: 'El servicio de recepción del comprador no aceptó la autenticación.',
  RECEIVER_REFUSED: 'El servicio de recepción del comprador rechazó el envío.',
  RECEIVER_URL_INVALID: 'La dirección de recepción del comprador no es válida.',
  DIRECTORY_UNAVAILABLE: 'El directorio de la DGII no respondió. Se consulta de nuevo más tarde.',
  DIRECTORY_TAXAUTH_AUTH_FAILED: 'La DGII no aceptó la autenticación para consultar su directorio.',
  CERTIFICATE_NOT_ACTIVE: 'La cuenta no tiene un certificado de firma activo: instálelo en Certificado.',
  SIGNING_CERTIFICATE_UNAVAILABLE: 'El certificado de firma no se pudo usar. Se reintentará.',
};

/** What an attempt to deliver to the buyer came to (`outcome` of `receiver_delivery_outcome`). */
export const RECEIVER_OUTCOME_LABELS: Record<string, string> = {
  received: 'Recibido por el comprador',
  not_received: 'No recibido por el comprador',
  failed: 'Fallido',
  unknown: 'Sin resultado conocido',
  invalid_answer: 'Respuesta no válida',
  refused: 'Rechazado',
};

// ---------------------------------------------------------------------------------------------
// Received documents (suppliers' e-CF, customers' commercial approvals)

export const RECEIVED_GROUP_LABELS: Record<string, string> = {
  pending_approval: 'Pendiente de aprobación comercial',
  accepted: 'Aceptado',
  rejected: 'Rechazado',
  not_received: 'No recibido',
};

export const RECEIVED_GROUP_TONES: Record<string, TStatusTone> = {
  pending_approval: 'warning',
  accepted: 'success',
  rejected: 'danger',
  not_received: 'neutral',
};

/** `CodigoMotivoNoRecibido` of the ARECF. */
export const NOT_RECEIVED_LABELS: Record<number, string> = {
  1: 'Error de especificación',
  2: 'Error de firma digital',
  3: 'Envío duplicado',
  4: 'RNC comprador no corresponde',
};

export const VALIDITY_LABELS: Record<string, string> = {
  valid: 'Válido (Aceptado)',
  valid_conditional: 'Válido (Aceptado condicional)',
  rejected: 'Rechazado por la DGII',
  not_found: 'No encontrado en la DGII',
  in_process: 'En proceso en la DGII',
  unknown: 'Respuesta no reconocida',
  not_applicable: 'No aplica en CerteCF',
  check_failed: 'No se pudo consultar',
};

export const DECISION_LABELS: Record<string, string> = {
  accept: 'Aceptado',
  reject: 'Rechazado',
  accepted: 'Aceptado',
  rejected: 'Rechazado',
};

/** How a person fixed an uncertain commercial approval (`reconciliation.outcome`). */
export const COMMERCIAL_RECONCILIATION_LABELS: Record<string, string> = {
  sent: 'Entregada al emisor',
  dispatch_failed: 'No entregada al emisor',
  taxauth_accepted: 'Aceptada por la DGII',
  taxauth_rejected: 'Rechazada por la DGII',
};

export const RECEIVED_APPROVAL_STATUS_LABELS: Record<string, string> = {
  received: 'Recibida',
  not_received: 'No recibida',
  rejected: 'Rechazada al recibir',
  duplicate: 'Duplicada',
} satisfies Record<InboundStatus, string>;

export const CORRESPONDENCE_LABELS: Record<string, string> = {
  matched: 'Coincide con el e-CF emitido',
  mismatch: 'No coincide con el e-CF emitido',
  ecf_not_found: 'No hay un e-CF emitido con ese e-NCF',
};

// ---------------------------------------------------------------------------------------------
// Webhooks

/** Every webhook event type, as a short label. */
export const WEBHOOK_EVENT_LABELS: Record<TWebhookEventType, string> = {
  'ecf.queued': 'e-CF en cola',
  'document.state_changed': 'Cambio de estado de un e-CF',
  'taxauth.service_degraded': 'La DGII dejó de responder',
  'taxauth.service_restored': 'La DGII volvió a responder',
  'annulment.state_changed': 'Cambio de estado de una anulación',
  'taxauth.public.receiver.ecf.received': 'e-CF recibido de un proveedor',
  'document.received': 'e-CF recibido de un proveedor',
  'document.commercial_approval_received': 'Aprobación comercial recibida',
  'document.commercial_approval_due': 'Aprobación comercial por vencer',
  'certification.state_changed': 'Cambio en la certificación',
  'certification.run_completed': 'Corrida de certificación terminada',
  'certificate.validated': 'Certificado instalado',
  'certificate.expiring': 'Certificado por vencer',
  'certificate.expired': 'Certificado vencido',
  'production.state_changed': 'Cambio en la autorización de producción',
  'webhook.test': 'Prueba de webhook',
};

export const WEBHOOK_ENDPOINT_STATUS_LABELS: Record<WebhookEndpointStatus, string> = {
  active: 'Activo',
  paused: 'Pausado',
  retired: 'Eliminado',
};

export const WEBHOOK_DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  queued: 'En cola',
  running: 'Enviando',
  succeeded: 'Entregado',
  failed: 'Fallido',
};

export const WEBHOOK_ATTEMPT_OUTCOME_LABELS: Record<WebhookAttemptOutcome, string> = {
  succeeded: 'Entregado',
  retry: 'Se reintentará',
  failed: 'Fallido',
};

/** Why a delivery ended failed (`failureReason`) or an attempt did not succeed (`error` code). */
export const WEBHOOK_FAILURE_TEXTS: Record<
  TWebhookDeliveryErrorCode | 'attempts_exhausted' | 'endpoint_retired' | 'failed',
  string
> = {
  attempts_exhausted: 'Sin más reintentos: se agotaron los intentos',
  endpoint_retired: 'El endpoint fue eliminado',
  failed: 'Falló sin reintento',
  http_status: 'El receptor respondió con un código de error HTTP',
  redirect: 'El receptor respondió con una redirección (no se siguen)',
  timeout: 'El receptor no respondió a tiempo',
  network: 'No se pudo conectar con el receptor',
  certificate_invalid: 'El certificado TLS del receptor no es válido',
  response_too_large: 'La respuesta del receptor pasó de 64 KiB',
  url_invalid: 'La URL no es válida',
  url_too_long: 'La URL es demasiado larga',
  scheme_not_https: 'La URL no usa https://',
  credentials_in_url: 'La URL lleva usuario o contraseña',
  host_not_allowed: 'Ese servidor no está permitido',
  address_not_public: 'La URL apunta a una dirección que no es pública',
  host_unresolvable: 'No se encontró el servidor de la URL',
};

// ---------------------------------------------------------------------------------------------
// The portal's audit log

export const AUDIT_ACTION_LABELS: Record<TAuditAction, string> = {
  'session.signed_in': 'Inició sesión',
  'session.sign_in_failed': 'Intento de inicio de sesión fallido',
  'session.signed_out_everywhere': 'Cerró sesión en todos los dispositivos',
  'user.password_reset': 'Cambió su contraseña con un enlace',
  'member.invited': 'Invitó a un miembro',
  'member.invitation_revoked': 'Anuló una invitación',
  'member.joined': 'Se unió a la cuenta',
  'member.role_changed': 'Cambió un rol',
  'member.removed': 'Quitó a un miembro',
  'account.updated': 'Cambió los datos de la cuenta',
  'api_key.created': 'Creó una clave de API',
  'api_key.revoked': 'Revocó una clave de API',
  'certificate.uploaded': 'Instaló un certificado de firma',
  'webhook.created': 'Creó un endpoint de webhooks',
  'webhook.updated': 'Cambió un endpoint de webhooks',
  'webhook.retired': 'Eliminó un endpoint de webhooks',
  'webhook.secret_rotated': 'Rotó el secreto de un endpoint',
  'webhook.test_sent': 'Envió una prueba de webhook',
  'webhook.delivery_replayed': 'Reenvió una entrega de webhook',
  'support.viewed': 'Soporte consultó datos',
  'support.acted': 'Soporte realizó una acción',
  'export.created': 'Exportó documentos o el registro de auditoría',
};

/** What support read (`targetId` of `support.viewed`: a procedure `area.name`), by its area. */
export const SUPPORT_VIEW_AREA_LABELS: Record<string, string> = {
  overview: 'Resumen',
  account: 'Cuenta',
  members: 'Miembros',
  invitations: 'Invitaciones',
  audit: 'Registro de auditoría',
  apiKeys: 'Claves de API',
  certificate: 'Certificado',
  documents: 'Documentos',
  webhooks: 'Webhooks',
  sequences: 'Secuencias',
  annulments: 'Anulaciones',
  commercialApprovals: 'Aprobaciones comerciales',
  inbound: 'Recibidos',
  certification: 'Certificación',
  support: 'Mesa de soporte',
};

/** Views worth naming more precisely than their area (downloads and the support desk's lists). */
export const SUPPORT_VIEW_LABELS: Record<string, string> = {
  'documents.evidence': 'Documentos · paquete de evidencia',
  'documents.xml': 'Documentos · XML firmado',
  'documents.pdf': 'Documentos · PDF',
  'support.contingency': 'Mesa de soporte · documentos en contingencia',
  'support.notifications': 'Mesa de soporte · avisos al operador',
  'support.uncertainDeliveries': 'Mesa de soporte · entregas inciertas',
  'certification.evidence': 'Certificación · evidencia de una corrida',
  'inbound.xml': 'Recibidos · XML de un e-CF recibido',
  'inbound.approval_xml': 'Recibidos · XML de una aprobación comercial',
  'exports.download': 'Exportaciones · descarga',
};

/** `Consulta: Documentos` from `documents.get`; an area the table does not know is "datos de la cuenta". */
export function supportViewText(targetId: string | null): string {
  const what = targetId ?? '';
  if (Object.hasOwn(SUPPORT_VIEW_LABELS, what)) return `Consulta: ${SUPPORT_VIEW_LABELS[what] ?? ''}`;
  const area = what.split('.')[0] ?? '';
  return `Consulta: ${Object.hasOwn(SUPPORT_VIEW_AREA_LABELS, area) ? SUPPORT_VIEW_AREA_LABELS[area] : 'datos de la cuenta'}`;
}

/** The support desk's named actions (`targetId` of `support.acted`). */
export const SUPPORT_ACTION_LABELS: Record<string, string> = {
  'notification.acknowledged': 'Atendió un aviso al operador',
  'receiver_delivery.reconciled': 'Concilió una entrega al comprador',
};

/** A member role as the audit log names it; an unknown one as "otro rol". */
export function roleLabelOf(role: string): string {
  return (ROLE_LABELS as Record<string, string>)[role] ?? 'otro rol';
}

// ---------------------------------------------------------------------------------------------
// Outages of the tax authority

export const TAXAUTH_SERVICE_LABELS: Record<string, string> = {
  recepcion: 'Recepción de e-CF',
  recepcionfc: 'Recepción de RFCE (consumo < RD$250,000)',
};

/** The operator notifications' kinds (the support desk's "Aviso"). */
export const OPERATOR_NOTIFICATION_LABELS: Record<string, string> = {
  taxauth_contingency_72h: 'Un e-CF lleva 72 horas sin llegar a la DGII; se sigue reintentando.',
  buyer_email_uncertain: 'No se sabe si el correo al comprador llegó; no se reenviará solo.',
};

/** `code` of an outage episode (what the sends met). */
export const OUTAGE_CODE_LABELS: Record<string, string> = {
  TAXAUTH_UNAVAILABLE: 'sin respuesta o error del servidor',
  TAXAUTH_TIMEOUT: 'sin respuesta a tiempo',
  TAXAUTH_AUTH_UNAVAILABLE: 'la autenticación no responde',
};

// ---------------------------------------------------------------------------------------------
// Validation (fiscal-core) and the certification workbooks

/** Every issue code a submission's validation can report (fiscal-core and the services' XSD check). */
export type TValidationCode =
  | TSubmissionErrorCode
  | TSubmissionWarningCode
  | TXmlIssueCode
  | 'XSD_VALIDATION_FAILED'
  | 'LINE_LIMIT_EXCEEDED'
  | 'STRUCTURE_LIMIT_EXCEEDED';

/** fiscal-core's validation codes in Spanish (the API keeps its codes, paths and English messages). */
export const VALIDATION_MESSAGES: Record<TValidationCode, string> = {
  JSON_MALFORMED: 'El texto no es un JSON válido.',
  JSON_DUPLICATE_KEY: 'Un objeto repite el mismo nombre de campo.',
  JSON_TOO_DEEP: 'El JSON tiene demasiados niveles anidados.',
  SUBMISSION_FORMAT_AMBIGUOUS:
    'El documento mezcla el formato de la DGII (raíz ECF) con el contrato simplificado.',
  SUBMISSION_FORMAT_UNRECOGNIZED: 'El documento no tiene la raíz ECF ni la forma del contrato simplificado.',
  FIELD_REQUIRED: 'Falta este campo obligatorio.',
  FIELD_TYPE_INVALID: 'El valor no es del tipo esperado (texto, número, lista u objeto).',
  FIELD_VALUE_INVALID: 'El valor no es válido para este campo.',
  FIELD_NOT_APPLICABLE_FOR_TYPE: 'Este campo no existe en este tipo de e-CF.',
  UNKNOWN_FIELD: 'Este campo no existe en el contrato simplificado.',
  SIMPLIFIED_CONTRACT_UNSUPPORTED:
    'El contrato simplificado no admite esto: use el formato de la DGII (raíz ECF).',
  UNRESOLVED_PLACEHOLDER: 'Marcador {{…}} desconocido o sin dato en la cuenta.',
  DECIMAL_FORMAT_INVALID: 'El monto debe ser un número con punto decimal, sin comas ni letras.',
  TEXT_CHARACTER_NOT_ALLOWED: 'El texto contiene un carácter no admitido (un carácter de control).',
  DATE_INVALID: 'La fecha no existe o no tiene el formato DD-MM-AAAA.',
  SEQUENCE_EXPIRATION_DATE_REQUIRED: 'Falta la fecha de vencimiento de la secuencia.',
  SEQUENCE_EXPIRATION_DATE_INVALID: 'La fecha de vencimiento de la secuencia no es una fecha real.',
  SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE:
    'Las facturas de consumo (E32) y las notas de crédito (E34) no llevan vencimiento de secuencia.',
  SEQUENCE_EXPIRED_AT_ISSUE_DATE: 'La secuencia ya estaba vencida en la fecha de emisión.',
  SEQUENCE_EXPIRATION_RANGE_MISMATCH:
    'El vencimiento no coincide con el del rango registrado que contiene este e-NCF.',
  GLOBAL_AMOUNT_WITH_PRICES_INCLUDE_TAX:
    'Un descuento o recargo global por monto no se admite con precios que incluyen ITBIS.',
  BUYER_ID_REQUIRED: 'Falta la identificación del comprador (RNC, cédula o identificador extranjero).',
  BUYER_ID_EXCLUSIVE: 'Indique el RNC del comprador o su identificador extranjero, no ambos.',
  REFERENCED_ENCF_NOT_ACCEPTED: 'El e-CF referenciado fue rechazado o anulado.',
  CONTINGENCY_PAPER_REPLACEMENT_UNSUPPORTED:
    'El reemplazo de un comprobante en papel emitido en contingencia (código de modificación 4) no se admite.',
  REFERENCE_CODE_NOT_APPLICABLE: 'El código de modificación no aplica a este tipo de e-CF.',
  REFERENCED_BUYER_MISMATCH: 'El comprador no es el mismo del e-CF referenciado.',
  REFERENCED_DATE_MISMATCH: 'La fecha del NCF modificado no es la fecha de emisión del e-CF referenciado.',
  CREDIT_NOTES_EXCEED_ORIGINAL: 'Las notas de crédito juntas pasan del total del e-CF original.',
  REFERENCE_DATE_AFTER_ISSUE_DATE: 'La fecha del NCF modificado es posterior a la fecha de emisión.',
  CREDIT_NOTE_INDICATOR_MISMATCH:
    'El indicador de nota de crédito no corresponde a los días entre la fecha del NCF modificado y la emisión.',
  SIGNATURE_DATE_IN_FUTURE: 'La fecha de firma está en el futuro (hora de República Dominicana).',
  SIGNATURE_DATE_INVALID: 'La fecha de firma no se puede leer.',
  NORMA_1007_REQUIRES_ITBIS_INCLUDED: 'Un descuento de la Norma 10-07 exige precios con ITBIS incluido.',
  ITBIS_RATE_MISMATCH: 'Las tasas de ITBIS deben ser 18, 16 y 0.',
  TOTAL_ITBIS_REQUIRED: 'Falta el total de ITBIS.',
  EXCHANGE_RATE_INVALID: 'En otra moneda la tasa de cambio debe ser mayor que 0.',
  PAGINATION_INVALID: 'La paginación no corresponde al total de páginas o a las líneas.',
  ISC_SPECIFIC_AMOUNT_REQUIRED: 'Falta el monto del ISC específico para los códigos de ISC 006 a 039.',
  ITBIS_RETENTION_EXCEEDS_LINE_ITBIS: 'El ITBIS retenido pasa del ITBIS de la línea.',
  ISR_RETENTION_REQUIRES_SERVICE: 'La retención de ISR solo aplica a líneas de servicio.',
  PAYMENT_DUE_DATE_REQUIRED: 'Una venta a crédito necesita la fecha límite de pago.',
  ISSUER_PHONE_INVALID: 'Hasta 3 teléfonos del emisor, cada uno con la forma 809-555-1234.',
  ISSUER_RNC_MISMATCH: 'El RNC del emisor no es el de esta cuenta.',
  SQUARING_ABOVE_TAXAUTH_TOLERANCE: 'Un monto declarado difiere del calculado más de lo que tolera la DGII.',
  ISC_SPECIFIC_AMOUNT_MISSING: 'Un grupo de ISC no tiene de dónde tomar el monto del ISC específico.',
  SEQUENCE_EXPIRATION_BEYOND_LEGAL_MAX:
    'El vencimiento de la secuencia pasa del 31 de diciembre del año siguiente a la emisión.',
  SEQUENCE_EXPIRED_AT_SEND_DATE: 'La secuencia ya está vencida a la fecha de envío.',
  PERCEPTION_REGIME_NOT_IN_FORCE: 'El régimen de percepción no está vigente.',
  CREDIT_NOTE_ITBIS_NOT_RETURNED: 'Una nota de crédito de más de 30 días no devuelve ITBIS.',
  BUYER_RNC_NOT_IN_TAXAUTH_REGISTRY: 'El RNC del comprador no aparece en el registro de la DGII.',
  BUYER_RNC_NOT_ACTIVE_IN_TAXAUTH: 'El RNC del comprador no está activo en la DGII.',
  ECF_TYPE_UNSUPPORTED: 'El tipo de e-CF falta o no es uno de los diez de la DGII.',
  ELEMENT_NOT_IN_XSD: 'Este elemento no existe en ese lugar del formato de la DGII.',
  REQUIRED_ELEMENT_MISSING: 'Falta un elemento obligatorio del formato de la DGII.',
  ELEMENT_OCCURS_EXCEEDED: 'Este elemento se repite más veces de las permitidas.',
  ELEMENT_SHAPE_INVALID: 'Este elemento lleva texto donde van otros elementos, o al revés.',
  XML_CHARACTER_INVALID: 'El valor contiene caracteres que XML no admite.',
  RFCE_NOT_APPLICABLE: 'El resumen RFCE solo aplica a facturas de consumo menores de RD$250,000.',
  SECURITY_CODE_INVALID: 'El código de seguridad no corresponde a la firma del e-CF.',
  RNC_INVALID: 'El RNC o la cédula debe tener 9 u 11 dígitos.',
  ENCF_INVALID: 'El e-NCF no es válido: una letra de serie, el tipo de dos dígitos y diez dígitos.',
  ECF_TYPE_INVALID: 'El tipo de e-CF no es uno de los diez de la DGII.',
  DATE_TIME_INVALID: 'La fecha y hora no existe o no tiene el formato DD-MM-AAAA HH:MM:SS.',
  AMOUNT_INVALID: 'El monto debe tener punto decimal, hasta 16 enteros y hasta 2 decimales.',
  REJECTION_REASON_REQUIRED: 'Un rechazo comercial necesita su motivo.',
  REJECTION_REASON_NOT_APPLICABLE: 'Una aceptación no lleva motivo de rechazo.',
  REJECTION_REASON_TOO_LONG: 'El motivo de rechazo pasa de 250 caracteres.',
  NOT_RECEIVED_REASON_REQUIRED: 'Falta el motivo de no recepción.',
  NOT_RECEIVED_REASON_INVALID: 'El motivo de no recepción no es uno de los cuatro definidos.',
  NOT_RECEIVED_REASON_NOT_APPLICABLE: 'Un e-CF recibido no lleva motivo de no recepción.',
  ANNULMENT_RANGES_REQUIRED: 'La anulación necesita al menos un rango.',
  ANNULMENT_RANGE_TYPE_MISMATCH: 'Los e-NCF del rango son de otro tipo o de otra serie.',
  ANNULMENT_RANGE_REVERSED: 'El inicio del rango es posterior a su final.',
  ANNULMENT_RANGES_OVERLAP: 'Dos rangos comparten e-NCF.',
  ANNULMENT_TOO_MANY_TYPES: 'Una anulación admite hasta 10 tipos de e-CF.',
  ANNULMENT_TOO_MANY_RANGES: 'Una anulación admite hasta 10,000 rangos por tipo.',
  XSD_VALIDATION_FAILED: 'El XML no cumple el esquema oficial de la DGII.',
  LINE_LIMIT_EXCEEDED: 'Un e-CF admite hasta 1000 líneas de detalle.',
  STRUCTURE_LIMIT_EXCEEDED: 'El documento tiene más elementos de los que admite un e-CF.',
};

/** The Spanish message of a validation issue: its code's, or a general one. */
export function validationMessageOf(code: string): string {
  return Object.hasOwn(VALIDATION_MESSAGES, code)
    ? (VALIDATION_MESSAGES[code as TValidationCode] ?? '')
    : 'Revise este campo.';
}

/** Problems of a certification workbook (and of its rows against their e-CF) in Spanish. */
export const WORKBOOK_PROBLEM_TEXTS: Record<
  TWorkbookErrorCode | 'RFCE_ROW_MISMATCH' | 'RFCE_ROW_WITHOUT_ECF',
  string
> = {
  WORKBOOK_CORRUPT:
    'El archivo no es un libro de Excel (.xlsx) legible. Elija el libro que descargó de la DGII.',
  WORKBOOK_SHEET_MISSING: 'Falta una hoja que este libro necesita.',
  WORKBOOK_SHEET_EMPTY: 'La hoja tiene encabezados pero ninguna fila de datos.',
  WORKBOOK_COLUMN_UNKNOWN: 'Esta columna no corresponde a ningún campo del formato de la DGII.',
  WORKBOOK_COLUMN_DUPLICATE: 'Dos columnas de la hoja son el mismo campo.',
  WORKBOOK_COLUMN_NOT_IN_TYPE: 'La fila da un valor a un campo que su tipo de e-CF no tiene.',
  WORKBOOK_TYPE_INVALID: 'Falta el tipo de e-CF de la fila o no corresponde a esta hoja.',
  WORKBOOK_VALUE_NOT_TEXT: 'El valor debe ser texto.',
  WORKBOOK_VALUE_REQUIRED:
    'Falta un valor que identifica la fila (RNC del emisor, e-NCF o RNC del comprador).',
  CERTIFICATION_SET_ISSUER_MISMATCH: 'La fila es de otro RNC que el de esta cuenta.',
  RFCE_ROW_MISMATCH: 'La fila del resumen RFCE no coincide con su factura de consumo.',
  RFCE_ROW_WITHOUT_ECF: 'La fila del resumen RFCE no tiene su factura de consumo en la hoja ECF.',
};

/** A problem of a workbook or of a row's e-CF: the workbook's text, else the validation's. */
export function workbookProblemOf(code: string): string {
  if (Object.hasOwn(WORKBOOK_PROBLEM_TEXTS, code))
    return WORKBOOK_PROBLEM_TEXTS[code as keyof typeof WORKBOOK_PROBLEM_TEXTS];
  return validationMessageOf(code);
}

// ---------------------------------------------------------------------------------------------
// Raw text: what systems wrote (kept for "Detalles técnicos")

/** `CODE: message` (the services' `errorTextOf`) split; a text without a leading code has `code` null. */
export function splitCodedText(text: string): { code: string | null; message: string } {
  if (/^[A-Z][A-Z0-9_]*$/.test(text.trim())) return { code: text.trim(), message: '' };
  const match = /^([A-Za-z][A-Za-z0-9_]*):\s*([\s\S]*)$/.exec(text.trim());
  if (match === null) return { code: null, message: text.trim() };
  return { code: match[1] ?? null, message: match[2] ?? '' };
}

/** The sentence for a coded problem, looked up in each section given, in order; else `fallback`. */
export function problemSentenceOf(
  code: string | null,
  sections: readonly Readonly<Record<string, string>>[],
  fallback: string,
): string {
  if (code === null) return fallback;
  for (const section of sections) if (Object.hasOwn(section, code)) return section[code] ?? fallback;
  return fallback;
}

/** `a. m.` + `.` is one period: a sentence that ends with a date or an abbreviation gets none more. */
export function endSentence(text: string): string {
  return /[.!?…]$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}

// ---------------------------------------------------------------------------------------------
// Roles and production

export const MEMBER_ROLE_LABELS: Record<MemberRole, string> = ROLE_LABELS;

export const PRODUCTION_LABELS: Record<ProductionState, string> = {
  not_requested: 'No solicitada',
  pending: 'En trámite',
  active: 'Activa',
  suspended: 'Suspendida',
};

export const ANNULMENT_STATE_LABELS: Record<AnnulmentState, string> = {
  built: ANNULMENT_STATUS_LABELS['built'] ?? 'Preparada',
  sending: ANNULMENT_STATUS_LABELS['sending'] ?? 'Enviándose',
  accepted: ANNULMENT_STATUS_LABELS['accepted'] ?? 'Aceptada',
  rejected: ANNULMENT_STATUS_LABELS['rejected'] ?? 'Rechazada',
  uncertain: ANNULMENT_STATUS_LABELS['uncertain'] ?? 'Incierta',
  failed: ANNULMENT_STATUS_LABELS['failed'] ?? 'Fallida (no enviada)',
};

/** Certification: a case's state and a run's (the labels of `certification-schemas.ts`). */
export const CERTIFICATION_CASE_STATE_LABELS: Record<CertificationCaseState, string> = {
  in_progress: CASE_STATE_LABELS['in_progress'] ?? 'En curso',
  failed: CASE_STATE_LABELS['failed'] ?? 'Fallida',
  approved: CASE_STATE_LABELS['approved'] ?? 'Aprobada',
  closed: CASE_STATE_LABELS['closed'] ?? 'Cerrada',
};

export const CERTIFICATION_RUN_STATE_LABELS: Record<CertificationRunState, string> = Object.fromEntries(
  Object.entries(RUN_STATE_LABELS),
) as Record<CertificationRunState, string>;
