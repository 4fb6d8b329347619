import { readEnv } from './env.ts';
import { startMailCatcher } from './mail-catcher.ts';

let env: ReturnType<typeof readEnv>;
try {
  env = readEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const catcher = await startMailCatcher({ host: env.host, smtpPort: env.smtpPort, httpPort: env.httpPort });
console.log(
  `mail catcher: SMTP on ${env.host}:${catcher.smtpPort}, caught messages at http://${env.host}:${catcher.httpPort}/`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    catcher.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
