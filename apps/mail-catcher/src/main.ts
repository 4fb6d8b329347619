import { startMailCatcher } from './mail-catcher.ts';

// The only file that reads the environment (the package depends on smtp-server alone, hence no zod).
// A bad value names the variable, never the value.
function port(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`mail-catcher: ${name} must be a port number (0-65535)`);
    process.exit(1);
  }
  return value;
}

const host = process.env['MAIL_CATCHER_HOST'] || '127.0.0.1';
const catcher = await startMailCatcher({
  host,
  smtpPort: port('MAIL_CATCHER_SMTP_PORT', 1025),
  httpPort: port('MAIL_CATCHER_HTTP_PORT', 3003),
});
console.log(
  `mail catcher: SMTP on ${host}:${catcher.smtpPort}, caught messages at http://${host}:${catcher.httpPort}/`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    catcher.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
