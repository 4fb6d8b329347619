import { z } from 'zod';
import { MAX_PAYMENT_TERM_DAYS } from '@ecf/services';
import { ENVIRONMENTS } from '../../../lib/environments.ts';
import { ZAccount } from './account.schema.ts';

/** The settings form: buyer e-mail per environment, payment term (null: unset), deferred sending. */
export const ZUpdateSettingsInput = z.strictObject({
  buyerEmailEnvironments: z
    .array(z.enum(ENVIRONMENTS, { error: 'Ambiente no válido.' }))
    .max(ENVIRONMENTS.length, 'Ambientes repetidos.')
    .refine((environments) => new Set(environments).size === environments.length, 'Ambientes repetidos.'),
  paymentTermDays: z
    .int({ error: 'Escriba un número entero de días.' })
    .min(0, 'El plazo no puede ser negativo.')
    .max(MAX_PAYMENT_TERM_DAYS, `El plazo no puede pasar de ${MAX_PAYMENT_TERM_DAYS} días.`)
    .nullable(),
  deferredSendAuthorized: z.boolean({ error: 'Indique si tiene autorización de envío diferido.' }),
});
export const ZUpdateSettingsOutput = ZAccount;
