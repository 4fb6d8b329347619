/**
 * Reading a workbook the person chose (client-side): its bytes as base64 for the JSON mutation,
 * refused before sending when it would pass the service's limit.
 */
import { WORKBOOK_FILE_MAX_BYTES, WORKBOOK_LIMIT_TEXT } from '../lib/certification-schemas.ts';

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

export type TWorkbookFile = { name: string; size: number; base64: string };

/** The file as base64, or the message to show on the field. */
export async function readWorkbookFile(file: File): Promise<{ file: TWorkbookFile } | { error: string }> {
  if (file.size === 0) return { error: 'El archivo está vacío.' };
  if (file.size > WORKBOOK_FILE_MAX_BYTES)
    return {
      error: `El libro pesa ${Math.ceil(file.size / 1024).toLocaleString('es-DO')} KB. ${WORKBOOK_LIMIT_TEXT}`,
    };
  return {
    file: { name: file.name, size: file.size, base64: base64Of(new Uint8Array(await file.arrayBuffer())) },
  };
}
