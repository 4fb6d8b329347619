/**
 * The mail catcher's environment, read once. The package depends on smtp-server alone, hence no
 * zod; a bad value names the variable, never the value.
 */
export type TEnv = { host: string; smtpPort: number; httpPort: number };

function port(source: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = source[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new Error(`mail-catcher: ${name} must be a port number (0-65535)`);
  return value;
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): TEnv {
  return {
    host: source['MAIL_CATCHER_HOST'] || '127.0.0.1',
    smtpPort: port(source, 'MAIL_CATCHER_SMTP_PORT', 1025),
    httpPort: port(source, 'MAIL_CATCHER_HTTP_PORT', 3003),
  };
}
