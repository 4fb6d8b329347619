/**
 * The portal's e-mails (invitation, password reset), in Spanish like the portal, sent through the
 * same SMTP code and settings as the buyer e-mail (`shared/smtp.ts`, `SMTP_*`, `MAIL_FROM`). The
 * link is the only place the token ever appears.
 */
import { randomUUID } from 'node:crypto';
import type { MemberRole } from '@ecf/db';
import { sendSmtpMessage, type TSmtpSettings } from '../shared/smtp.ts';

/** How the portal's e-mails are sent and where their links point. */
export type TPortalMail = {
  smtp: TSmtpSettings;
  /** The portal's public address (PORTAL_PUBLIC_URL): links are `{portalPublicUrl}/...`. */
  portalPublicUrl: string;
};

const ROLE_NAMES: Record<MemberRole, string> = {
  owner: 'propietario',
  developer: 'desarrollador',
  accountant: 'contador',
};

const DEFAULT_TIMEOUT_MS = 30_000;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character,
  );
}

/** `{portalPublicUrl}{path}?token=...` */
export function portalLink(mail: TPortalMail, path: string, token: string): string {
  const url = new URL(path, `${mail.portalPublicUrl.replace(/\/+$/, '')}/`);
  url.searchParams.set('token', token);
  return url.toString();
}

function formatDate(date: Date): string {
  return new Intl.DateTimeFormat('es-DO', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'America/Santo_Domingo',
  }).format(date);
}

/** The invitation: who invites, to which account, with which role, and the single-use link. */
export function composeInvitationEmail(input: {
  tenantName: string;
  inviterName: string;
  role: MemberRole;
  link: string;
  expiresAt: Date;
}) {
  const subject = `Invitación a ${input.tenantName} en el portal e-CF`;
  const lines = [
    `${input.inviterName} le invita a unirse a ${input.tenantName} como ${ROLE_NAMES[input.role]} en el portal de comprobantes fiscales electrónicos.`,
    '',
    `Acepte la invitación aquí (vence el ${formatDate(input.expiresAt)}; sirve una sola vez):`,
    input.link,
    '',
    'Si no esperaba esta invitación, ignore este mensaje.',
  ];
  const html = `<p>${escapeHtml(lines[0] ?? '')}</p>
<p><a href="${escapeHtml(input.link)}">Aceptar la invitación</a> (vence el ${escapeHtml(formatDate(input.expiresAt))}; sirve una sola vez).</p>
<p>Si no esperaba esta invitación, ignore este mensaje.</p>`;
  return { subject, text: lines.join('\n'), html };
}

/** The password reset link. */
export function composePasswordResetEmail(input: { name: string; link: string; expiresAt: Date }) {
  const subject = 'Restablecer su contraseña del portal e-CF';
  const lines = [
    `Hola, ${input.name}:`,
    '',
    `Para elegir una contraseña nueva, abra este enlace (vence el ${formatDate(input.expiresAt)}; sirve una sola vez):`,
    input.link,
    '',
    'Al cambiarla se cerrarán todas sus sesiones abiertas. Si no pidió este cambio, ignore este mensaje: su contraseña sigue siendo la misma.',
  ];
  const html = `<p>Hola, ${escapeHtml(input.name)}:</p>
<p><a href="${escapeHtml(input.link)}">Elegir una contraseña nueva</a> (vence el ${escapeHtml(formatDate(input.expiresAt))}; sirve una sola vez).</p>
<p>Al cambiarla se cerrarán todas sus sesiones abiertas. Si no pidió este cambio, ignore este mensaje: su contraseña sigue siendo la misma.</p>`;
  return { subject, text: lines.join('\n'), html };
}

/** Sends one of the messages above to `to`. */
export async function sendPortalEmail(
  mail: TPortalMail,
  message: { to: string; subject: string; text: string; html: string },
): Promise<void> {
  const domain = /@([^>\s]+)/.exec(mail.smtp.from)?.[1] ?? 'ecf.localhost';
  await sendSmtpMessage(
    mail.smtp.transport,
    { from: mail.smtp.from, ...message, messageId: `<${randomUUID()}@${domain}>` },
    mail.smtp.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  );
}
