/**
 * The load of bench/hostile/run.ts: SENDERS connections each POSTing HOSTILE_BODY (a file) to the
 * preflight route with HOSTILE_KEY (or to HOSTILE_PATH as HOSTILE_CONTENT_TYPE: the reception
 * phase's multipart deliveries), the next as soon as the previous is answered, until stdin closes;
 * then prints one JSON line counting the answers (`<status> <code>`, an ARECF's `Estado`/motivo,
 * or `socket <error>`).
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const url = new URL(process.env['HOSTILE_URL'] ?? '');
const key = process.env['HOSTILE_KEY'] ?? '';
const body = readFileSync(process.env['HOSTILE_BODY'] ?? '');
const senders = Number(process.env['SENDERS'] ?? '4');
const path = process.env['HOSTILE_PATH'] ?? '/TesteCF/documentos-ecf?validate=true';
const contentType = process.env['HOSTILE_CONTENT_TYPE'] ?? 'application/json';
const answers: Record<string, number> = {};
let running = true;
process.stdin.on('end', () => {
  running = false;
});
process.stdin.resume();

function sendOnce(agent: Agent): Promise<string> {
  return new Promise((resolve) => {
    const sending = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        agent,
        headers: {
          'content-type': contentType,
          'content-length': body.length,
          ...(key === '' ? {} : { 'x-api-key': key }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const fieldCode = /"errors":\[\{"path":"[^"]*","code":"([A-Z_]+)"/.exec(text)?.[1];
          const errorCode = /"error":\{"code":"([A-Z_]+)"/.exec(text)?.[1];
          const estado = /<Estado>(\d)<\/Estado>(?:.*<CodigoMotivoNoRecibido>(\d)<)?/s.exec(text);
          const arecf = estado ? `Estado ${estado[1]}${estado[2] ? ` motivo ${estado[2]}` : ''}` : undefined;
          resolve(`${response.statusCode} ${fieldCode ?? errorCode ?? arecf ?? ''}`.trim());
        });
      },
    );
    sending.on('error', (error: NodeJS.ErrnoException) => resolve(`socket ${error.code ?? error.message}`));
    sending.end(body);
  });
}

await Promise.all(
  Array.from({ length: senders }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    while (running) {
      const outcome = await sendOnce(agent);
      answers[outcome] = (answers[outcome] ?? 0) + 1;
    }
    agent.destroy();
  }),
);
process.stdout.write(`${JSON.stringify(answers)}\n`);
