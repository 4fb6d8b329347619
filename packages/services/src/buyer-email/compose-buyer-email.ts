import type { Document } from '@ecf/db';
import { dominicanDateOf, formatTaxauthDate } from '@ecf/fiscal-core';
import type { TPrintingModule } from '../documents/index.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The Spanish message: subject with type name and eNCF; issuer, total and the link in the body. */
export function composeBuyerEmail(
  input: {
    type: number;
    encf: string;
    issuerName: string;
    buyerName: string | undefined;
    total: string;
    link: string;
    expiresAt: Date;
    environment: Document['environment'];
  },
  printing: Pick<TPrintingModule, 'ECF_TYPE_NAMES' | 'formatAmount'>,
) {
  const { ECF_TYPE_NAMES, formatAmount } = printing;
  const typeName = ECF_TYPE_NAMES[String(input.type)] ?? `e-CF tipo ${input.type}`;
  const subject = `${typeName} ${input.encf} de ${input.issuerName}`;
  const expires = formatTaxauthDate(dominicanDateOf(input.expiresAt.getTime()));
  const amount = `RD$ ${formatAmount(input.total)}`;
  const notice =
    input.environment === 'eCF'
      ? undefined
      : `Documento emitido en el ambiente ${input.environment} de la DGII: sin validez fiscal.`;
  const lines = [
    `Estimado(a) ${input.buyerName ?? 'cliente'}:`,
    '',
    `${input.issuerName} le ha emitido la ${typeName} ${input.encf} por un total de ${amount}, aceptada por la DGII.`,
    '',
    'Puede ver y descargar la representación impresa (PDF) en este enlace:',
    input.link,
    '',
    `El enlace es válido hasta el ${expires}.`,
    ...(notice ? ['', notice] : []),
    '',
    'Este es un mensaje automático; no responda a esta dirección.',
  ];
  const html =
    `<p>Estimado(a) ${escapeHtml(input.buyerName ?? 'cliente')}:</p>` +
    `<p>${escapeHtml(input.issuerName)} le ha emitido la <strong>${escapeHtml(typeName)} ${escapeHtml(input.encf)}</strong> por un total de <strong>${escapeHtml(amount)}</strong>, aceptada por la DGII.</p>` +
    `<p><a href="${escapeHtml(input.link)}">Ver la representación impresa (PDF)</a></p>` +
    `<p>El enlace es válido hasta el ${escapeHtml(expires)}.</p>` +
    (notice ? `<p><em>${escapeHtml(notice)}</em></p>` : '') +
    '<p style="color:#666">Este es un mensaje automático; no responda a esta dirección.</p>';
  return { subject, text: lines.join('\n'), html };
}
