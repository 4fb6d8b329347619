import type { z } from 'zod';

/**
 * Parses an app's environment with its zod schema. Empty values count as unset (so `.env`
 * lines left blank take the default); a failure names the variables, never their values.
 */
export function readEnvironment<TSchema extends z.ZodType>(
  schema: TSchema,
  source: NodeJS.ProcessEnv,
): z.infer<TSchema> {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].join(', ');
    throw new Error(`invalid environment variables: ${names}`);
  }
  return parsed.data;
}
