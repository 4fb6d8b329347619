import { z } from 'zod';
import { ACCOUNT_PROFILE_LIMITS, isIssuerPhone } from '@ecf/services';
import { ZAccount } from './account.schema.ts';

/** An optional text: empty clears it (null). */
const optionalText = (max: number, tooLong: string) =>
  z
    .string({ error: 'Escriba un texto.' })
    .trim()
    .max(max, tooLong)
    .transform((value) => (value === '' ? null : value));

/**
 * The profile form. Phones come as the form's fields (up to 3, blanks allowed and dropped), each
 * checked by the issuer phone rule of fiscal-core (rule 14, the one submissions get), so an error
 * lands on its own field (`phones.1`).
 */
export const ZUpdateProfileInput = z.strictObject({
  legalName: z
    .string({ error: 'Escriba la razón social.' })
    .trim()
    .min(1, 'Escriba la razón social.')
    .max(
      ACCOUNT_PROFILE_LIMITS.legalName,
      `La razón social no puede pasar de ${ACCOUNT_PROFILE_LIMITS.legalName} caracteres.`,
    ),
  tradeName: optionalText(
    ACCOUNT_PROFILE_LIMITS.tradeName,
    `El nombre comercial no puede pasar de ${ACCOUNT_PROFILE_LIMITS.tradeName} caracteres.`,
  ),
  address: optionalText(
    ACCOUNT_PROFILE_LIMITS.address,
    `La dirección no puede pasar de ${ACCOUNT_PROFILE_LIMITS.address} caracteres.`,
  ),
  phones: z
    .array(
      z
        .string({ error: 'Escriba un teléfono.' })
        .trim()
        .max(20, 'Use el formato 809-555-0101.')
        .refine(
          (value) => value === '' || isIssuerPhone(value),
          'Use el formato 809-555-0101 (NNN-NNN-NNNN).',
        ),
    )
    .max(ACCOUNT_PROFILE_LIMITS.phones, `Puede registrar hasta ${ACCOUNT_PROFILE_LIMITS.phones} teléfonos.`)
    .transform((phones) => phones.filter((phone) => phone !== '')),
  fiscalEmail: z
    .string({ error: 'Escriba el correo fiscal.' })
    .trim()
    .max(
      ACCOUNT_PROFILE_LIMITS.fiscalEmail,
      `El correo no puede pasar de ${ACCOUNT_PROFILE_LIMITS.fiscalEmail} caracteres.`,
    )
    .refine(
      (value) => value === '' || z.email().safeParse(value).success,
      'Escriba un correo electrónico válido.',
    )
    .transform((value) => (value === '' ? null : value)),
});
export const ZUpdateProfileOutput = ZAccount;
