/**
 * The tax authority's published taxpayer file (DGII's `DGII_RNC.TXT`, inside `DGII_RNC.zip`): one
 * taxpayer per line, fields separated by `|`, ISO-8859-1 text:
 *
 *   RNC or cédula | name (razón social) | trade name | economic activity | (4 fields the file
 *   leaves empty) | registration date | status | payment regime
 *
 * for example `101000001|FERRETERIA CENTRAL SRL|FERRETERIA CENTRAL|VENTA AL POR MENOR|||||01/02/1990|ACTIVO|NORMAL`.
 * The status is the 10th field; a shorter line (a file that drops the trailing fields) has it as
 * its last field. What the services read: the RNC (9 digits) or cédula (11; dashes and spaces
 * removed), the name, the trade name, the activity and the status (`ACTIVO`, `SUSPENDIDO`, `DADO DE
 * BAJA`, `ANULADO`, `CESE TEMPORAL`...), kept as written. docs/partner-api.md, "Taxpayer registry".
 */

/** One taxpayer as the registry keeps it. */
export type TRegistryLine = {
  rnc: string;
  name: string;
  tradeName: string | null;
  activity: string | null;
  status: string;
};

const STATUS_FIELD = 9;

/** A line of the file, or null when it is not a taxpayer (blank, a header, an RNC that is not 9 or 11 digits). */
export function parseRegistryLine(line: string): TRegistryLine | null {
  const fields = line.split('|').map((field) => field.trim());
  if (fields.length < 2) return null;
  const rnc = (fields[0] ?? '').replace(/[\s-]/g, '');
  if (!/^(\d{9}|\d{11})$/.test(rnc)) return null;
  const name = fields[1] ?? '';
  const status = (fields.length > STATUS_FIELD ? fields[STATUS_FIELD] : fields.at(-1)) ?? '';
  if (name === '' || status === '' || fields.length < 3) return null;
  const optional = (value: string | undefined) => (value === undefined || value === '' ? null : value);
  return {
    rnc,
    name,
    tradeName: optional(fields[2]),
    activity: optional(fields[3]),
    status: status.slice(0, 64),
  };
}

/** A value in PostgreSQL's COPY text format (backslash, tab, newline and carriage return escaped; null as `\N`). */
export function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\t\n\r]/g, (character) =>
    character === '\\' ? '\\\\' : character === '\t' ? '\\t' : character === '\n' ? '\\n' : '\\r',
  );
}
