import { z } from 'zod';
import { ZApiKey, ZEnvironment, ZScope } from './api-key.schema.ts';

/** Same limit as the use-case's (API_KEY_NAME_MAX_LENGTH). */
export const API_KEY_NAME_MAX = 100;

export const ZCreateApiKeyInput = z.object({
  environment: ZEnvironment,
  name: z
    .string({ error: 'Escriba un nombre para la clave.' })
    .trim()
    .min(1, 'Escriba un nombre para la clave.')
    .max(API_KEY_NAME_MAX, `El nombre no puede pasar de ${API_KEY_NAME_MAX} caracteres.`),
  scopes: z
    .array(ZScope, { error: 'Elija al menos un alcance.' })
    .min(1, 'Elija al menos un alcance.')
    .max(5, 'Elija al menos un alcance.'),
});

export const ZCreateApiKeyOutput = z.object({
  /** The clear key: shown once, never retrievable again (only its SHA-256 is stored). */
  key: z.string(),
  apiKey: ZApiKey,
});
