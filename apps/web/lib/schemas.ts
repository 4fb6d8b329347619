/**
 * Field schemas shared by the portal's forms (client components) and its procedures (server): the
 * same zod schema checks a field in the browser and again on the server. Client-safe: zod only.
 * Messages are the portal's (Spanish).
 */
import { z } from 'zod';

export const MEMBER_ROLES = ['owner', 'developer', 'accountant'] as const;
export type TMemberRole = (typeof MEMBER_ROLES)[number];

export const ROLE_LABELS: Record<TMemberRole, string> = {
  owner: 'Propietario',
  developer: 'Desarrollador',
  accountant: 'Contador',
};

export const ZEmail = z
  .string({ error: 'Escriba su correo electrónico.' })
  .trim()
  .min(1, 'Escriba el correo electrónico.')
  .max(254, 'El correo electrónico es demasiado largo.')
  .pipe(z.email({ error: 'Escriba un correo electrónico válido.' }));

/** A password being chosen: long enough to resist guessing, short enough to bound the hash's work. */
export const PASSWORD_MIN_LENGTH = 12;
export const ZNewPassword = z
  .string({ error: 'Escriba una contraseña.' })
  .min(PASSWORD_MIN_LENGTH, `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres.`)
  .max(200, 'La contraseña no puede pasar de 200 caracteres.');

/** A password being typed to sign in (any length the hash accepts). */
export const ZPassword = z
  .string({ error: 'Escriba su contraseña.' })
  .min(1, 'Escriba su contraseña.')
  .max(1024, 'La contraseña es demasiado larga.');

export const ZPersonName = z
  .string({ error: 'Escriba su nombre.' })
  .trim()
  .min(1, 'Escriba su nombre.')
  .max(200, 'El nombre no puede pasar de 200 caracteres.');

export const ZRole = z.enum(MEMBER_ROLES, { error: 'Elija un rol.' });

export const ZUuid = z.uuid({ error: 'Identificador no válido.' });

/** A single-use link's token (base64url, 43 characters when made by the portal). */
export const ZLinkToken = z
  .string({ error: 'Falta el enlace.' })
  .min(20, 'El enlace no es válido.')
  .max(200, 'El enlace no es válido.')
  .regex(/^[A-Za-z0-9_-]+$/, 'El enlace no es válido.');

/** Sign-in form: checked in the browser and by next-auth's authorize() on the server. */
export const ZSignInInput = z.object({ email: ZEmail, password: ZPassword });
export type TSignInInput = z.infer<typeof ZSignInInput>;
