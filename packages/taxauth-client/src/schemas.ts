/**
 * The tax authority's answers (FACTS §1.2–§1.12) with DGII's own field names. Keys are matched
 * case-insensitively (`encf`/`eNCF`, `trackId`/`trackid`, .NET PascalCase), numeric codes may come as
 * text (`"1"`), and fields DGII may leave out are optional. Unknown fields are kept.
 */
import { z } from 'zod';
import type { TTaxauthMessage } from './errors.ts';

/**
 * Renames the keys of a plain object to the canonical spelling of `shape` when they differ only
 * by letter case; other keys stay as they are.
 */
function withCanonicalKeys(canonical: readonly string[]) {
  const byLower = new Map(canonical.map((key) => [key.toLowerCase(), key]));
  return (value: unknown): unknown => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const target = byLower.get(key.toLowerCase()) ?? key;
      // An exact-case key wins over a differently cased duplicate.
      if (target in out && key !== target) continue;
      out[target] = item;
    }
    return out;
  };
}

/** A zod object whose keys are matched case-insensitively and whose unknown keys are kept. */
function caseInsensitiveObject<TShape extends z.ZodRawShape>(shape: TShape) {
  return z.preprocess(withCanonicalKeys(Object.keys(shape)), z.looseObject(shape));
}

/** Text as sent; `null` becomes undefined. */
const ZText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

/** A DGII status code: number or numeric text (`1`, `"1"`, `"01"`) → number. */
const ZCode = z.union([z.number(), z.string().regex(/^\s*-?\d+\s*$/)]).transform((value) => Number(value));

/** A code that may also be non-numeric text; kept exactly as sent. */
const ZRawCode = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => value ?? undefined);

const ZBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'True', 'False'])])
  .nullish()
  .transform((value) =>
    value === undefined || value === null
      ? undefined
      : value === true || String(value).toLowerCase() === 'true',
  );

/** One item of `mensajes`; a bare string (ANECF, ACECF) is kept as a string. */
export const ZTaxauthMessage = z.union([
  z.string(),
  caseInsensitiveObject({ codigo: z.union([z.number(), z.string()]).nullish(), valor: z.string().nullish() }),
]);

/** `mensajes` exactly as sent (array, or absent/null → empty). */
const ZMessages = z
  .array(ZTaxauthMessage)
  .nullish()
  .transform((value) => value ?? []);

/** Normalises `mensajes` items to `{ codigo?, valor? }` (strings become `{ valor }`), keeping the values as sent. */
export function toTaxauthMessages(items: ReadonlyArray<z.infer<typeof ZTaxauthMessage>>): TTaxauthMessage[] {
  return items.map((item) => {
    if (typeof item === 'string') return { valor: item };
    const message: TTaxauthMessage = {};
    if (item.codigo !== undefined) message.codigo = item.codigo;
    if (item.valor !== undefined) message.valor = item.valor;
    return message;
  });
}

// ---------------------------------------------------------------------------------------------
// Authentication (§1.2)

/** `validarsemilla` answer. */
export const ZTokenAnswer = caseInsensitiveObject({
  token: z.string().min(1),
  expira: z.string().min(1),
  expedido: ZText,
});
export type TTokenAnswer = z.infer<typeof ZTokenAnswer>;

// ---------------------------------------------------------------------------------------------
// Reception (§1.3)

export const ZReceptionAnswer = caseInsensitiveObject({
  trackId: ZText,
  error: ZText,
  mensaje: ZText,
  mensajes: ZMessages,
});
/** Answer of e-CF reception: the trackId to ask Consulta Resultado about. */
export type TReceptionResult = {
  trackId: string;
  error?: string;
  mensaje?: string;
  mensajes: Array<z.infer<typeof ZTaxauthMessage>>;
};

// ---------------------------------------------------------------------------------------------
// Result by trackId (§1.4)

/** Codes of Consulta Resultado / RFCE answers. */
export const RESULT_CODES = {
  NOT_FOUND: 0,
  ACCEPTED: 1,
  REJECTED: 2,
  IN_PROCESS: 3,
  ACCEPTED_CONDITIONAL: 4,
} as const;

export type TResultStatus =
  'not_found' | 'accepted' | 'rejected' | 'in_process' | 'accepted_conditional' | 'unknown';

/** `codigo` → our status. 1, 2 and 4 are final; 0 and 3 are not (ask again later). */
export function resultStatusOf(codigo: number | undefined, estado: string | undefined): TResultStatus {
  switch (codigo) {
    case 0:
      return 'not_found';
    case 1:
      return 'accepted';
    case 2:
      return 'rejected';
    case 3:
      return 'in_process';
    case 4:
      return 'accepted_conditional';
    default:
      return statusFromEstado(estado);
  }
}

/** `estado` text → status, for answers that carry no numeric code (ConsultaTrackIds). */
export function statusFromEstado(estado: string | undefined): TResultStatus {
  const text = (estado ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();
  if (text === 'aceptado') return 'accepted';
  if (text === 'aceptado condicional') return 'accepted_conditional';
  if (text === 'rechazado') return 'rejected';
  if (text === 'en proceso') return 'in_process';
  if (text === 'no encontrado') return 'not_found';
  return 'unknown';
}

/** Whether a status is final (the tax authority will not change it). */
export function isFinalStatus(status: TResultStatus): boolean {
  return status === 'accepted' || status === 'rejected' || status === 'accepted_conditional';
}

export const ZResultAnswer = caseInsensitiveObject({
  trackId: ZText,
  codigo: ZCode,
  estado: ZText,
  rnc: ZText,
  encf: ZText,
  secuenciaUtilizada: ZBoolean,
  fechaRecepcion: ZText,
  mensajes: ZMessages,
});
/** Consulta Resultado, with DGII's fields plus `status` and `isFinal` derived from `codigo`. */
export type TResultAnswer = z.infer<typeof ZResultAnswer> & { status: TResultStatus; isFinal: boolean };

// ---------------------------------------------------------------------------------------------
// ConsultaTrackIds (§1.7): an array, or a single object (normalised to an array)

export const ZTrackIdItem = caseInsensitiveObject({
  trackId: z.string(),
  estado: ZText,
  fechaRecepcion: ZText,
});
export const ZTrackIdsAnswer = z.union([z.array(ZTrackIdItem), ZTrackIdItem.transform((item) => [item])]);
export type TTrackIdItem = z.infer<typeof ZTrackIdItem> & { status: TResultStatus };

// ---------------------------------------------------------------------------------------------
// Consulta Estado (§1.6)

const ZAmount = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => value ?? undefined);

export const ZEcfStatusAnswer = caseInsensitiveObject({
  codigo: ZCode,
  estado: ZText,
  rncEmisor: ZText,
  ncfElectronico: ZText,
  montoTotal: ZAmount,
  totalITBIS: ZAmount,
  fechaEmision: ZText,
  fechaFirma: ZText,
  rncComprador: ZText,
  codigoSeguridad: ZText,
  idExtranjero: ZText,
});
export type TEcfStatusAnswer = z.infer<typeof ZEcfStatusAnswer> & { status: TResultStatus };

// ---------------------------------------------------------------------------------------------
// RFCE (§1.5)

export const ZRfceAnswer = caseInsensitiveObject({
  codigo: ZCode,
  estado: ZText,
  mensajes: ZMessages,
  encf: ZText,
  secuenciaUtilizada: ZBoolean,
});
export type TRfceAnswer = z.infer<typeof ZRfceAnswer> & { status: TResultStatus; isFinal: boolean };

export const ZRfceStatusAnswer = caseInsensitiveObject({
  rnc: ZText,
  encf: ZText,
  secuenciaUtilizada: ZBoolean,
  codigo: ZCode,
  estado: ZText,
  mensajes: ZMessages,
});
export type TRfceStatusAnswer = z.infer<typeof ZRfceStatusAnswer> & { status: TResultStatus };

// ---------------------------------------------------------------------------------------------
// Commercial approval (§1.8): `mensaje` is an array of strings (some clients see `mensajes`)

export const ZCommercialApprovalAnswer = caseInsensitiveObject({
  mensaje: z
    .union([z.array(z.string()), z.string()])
    .nullish()
    .transform((value) =>
      value === undefined || value === null ? undefined : Array.isArray(value) ? value : [value],
    ),
  mensajes: z
    .array(ZTaxauthMessage)
    .nullish()
    .transform((value) => value ?? undefined),
  estado: ZText,
  codigo: ZRawCode,
});
export type TCommercialApprovalAnswer = z.infer<typeof ZCommercialApprovalAnswer>;

// ---------------------------------------------------------------------------------------------
// Range annulment (§1.9)

export const ZAnnulmentAnswer = caseInsensitiveObject({
  rnc: ZText,
  codigo: ZRawCode,
  nombre: ZText,
  mensajes: ZMessages,
});
export type TAnnulmentAnswer = z.infer<typeof ZAnnulmentAnswer>;

// ---------------------------------------------------------------------------------------------
// Directory (§1.10): an array, or a single object (normalised to an array)

export const ZReceiver = caseInsensitiveObject({
  nombre: ZText,
  rnc: z.string(),
  urlRecepcion: ZText,
  urlAceptacion: ZText,
  urlOpcional: ZText,
});
export const ZDirectoryAnswer = z.union([z.array(ZReceiver), ZReceiver.transform((item) => [item])]);
export type TReceiver = z.infer<typeof ZReceiver>;

// ---------------------------------------------------------------------------------------------
// Service status (§1.12)

export const ZServiceStatus = caseInsensitiveObject({
  servicio: z.string(),
  estatus: ZText,
  ambiente: ZText,
});
export const ZServiceStatusAnswer = z.union([
  z.array(ZServiceStatus),
  ZServiceStatus.transform((item) => [item]),
]);
export type TServiceStatus = z.infer<typeof ZServiceStatus>;

export const ZMaintenanceWindow = caseInsensitiveObject({
  ambiente: ZText,
  horaInicio: ZText,
  horaFin: ZText,
  dias: z
    .array(z.string())
    .nullish()
    .transform((value) => value ?? []),
});
export const ZMaintenanceWindowsAnswer = caseInsensitiveObject({
  ventanaMantenimientos: z
    .array(ZMaintenanceWindow)
    .nullish()
    .transform((value) => value ?? []),
});
export type TMaintenanceWindowsAnswer = z.infer<typeof ZMaintenanceWindowsAnswer>;

export const ZEnvironmentStatusAnswer = caseInsensitiveObject({ estado: z.string() });
export type TEnvironmentStatusAnswer = z.infer<typeof ZEnvironmentStatusAnswer> & { isAvailable: boolean };
