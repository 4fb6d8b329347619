/** Seed and signed-seed validation (FACTS §1.2): `/{env}/autenticacion/api/autenticacion/{semilla,validarsemilla}`. */
import { X509Certificate } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifyXmlSignature } from '@ecf/fiscal-core';
import { environmentOf, type TSimContext } from '../context.ts';
import { answer, formatSeedDate, readXmlPart } from '../http.ts';
import { AUTH_MESSAGES, fill } from '../messages.ts';
import { createSeedValue, formatTokenDate, isSeedValueValid, issueToken } from '../tokens.ts';
import { leafText, rootNameOf } from '../xml.ts';

/** How long a seed can be signed and posted back. */
export const SEED_MAX_AGE_MS = 10 * 60_000;

type TEnvParams = { environment: string };

function refuse(reply: FastifyReply, text: string): FastifyReply {
  return reply.code(400).type('text/plain; charset=utf-8').send(text);
}

/** The signer's holder id and validity, read without verifying (load-test mode). */
function certificateOf(
  xml: string,
): { holderId: string | undefined; validFrom: Date; validTo: Date } | undefined {
  const base64 = leafText(xml, 'X509Certificate');
  if (base64 === undefined) return undefined;
  try {
    const certificate = new X509Certificate(Buffer.from(base64.replace(/\s/g, ''), 'base64'));
    const serial = /serialNumber=([^\n,]+)/.exec(certificate.subject)?.[1];
    return {
      holderId: serial?.replace(/^[A-Z]{2,5}-/, ''),
      validFrom: new Date(certificate.validFrom),
      validTo: new Date(certificate.validTo),
    };
  } catch {
    return undefined;
  }
}

export function registerAuthenticationRoutes(app: FastifyInstance, context: TSimContext): void {
  app.get<{ Params: TEnvParams }>(
    '/:environment/autenticacion/api/autenticacion/semilla',
    async (request, reply) => {
      const environment = environmentOf(request, reply);
      if (environment === undefined) return reply;
      const now = context.now();
      const xml =
        '<?xml version="1.0" encoding="utf-8"?>' +
        '<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
        `<valor>${createSeedValue(context.tokenSecret, environment, now)}</valor><fecha>${formatSeedDate(now)}</fecha></SemillaModel>`;
      return reply.type('application/xml; charset=utf-8').send(xml);
    },
  );

  app.post<{ Params: TEnvParams }>(
    '/:environment/autenticacion/api/autenticacion/validarsemilla',
    async (request: FastifyRequest<{ Params: TEnvParams }>, reply) => {
      const environment = environmentOf(request, reply);
      if (environment === undefined) return reply;
      const part = await readXmlPart(request);
      if (!part.ok || rootNameOf(part.xml) === undefined) return refuse(reply, AUTH_MESSAGES.fileTypeInvalid);
      const xml = part.xml;
      if (rootNameOf(xml) !== 'SemillaModel') return refuse(reply, AUTH_MESSAGES.seedInvalid);

      let signer: { holderId?: string | undefined; validFrom: Date; validTo: Date } | undefined;
      if (context.loadTest) {
        signer = certificateOf(xml);
      } else {
        const structure = context.validators.validateXml(xml, 'SemillaModel');
        if (!structure.success) return refuse(reply, AUTH_MESSAGES.signatureInvalid);
        const signature = verifyXmlSignature(xml);
        if (signature.valid) signer = signature.certificate;
      }
      if (signer?.holderId === undefined) return refuse(reply, AUTH_MESSAGES.signatureInvalid);
      const now = context.now();
      if (signer.validFrom.getTime() > now.getTime() || signer.validTo.getTime() < now.getTime())
        return refuse(reply, AUTH_MESSAGES.certificateExpired);
      const seed = leafText(xml, 'valor');
      if (
        seed === undefined ||
        !isSeedValueValid(seed, context.tokenSecret, environment, now, SEED_MAX_AGE_MS)
      )
        return refuse(reply, AUTH_MESSAGES.seedInvalid);
      if (await context.store.takeFault(environment, 'autenticacion', ['not_delegated'])) {
        return refuse(reply, fill(AUTH_MESSAGES.notDelegated, { rnc: signer.holderId }));
      }

      const issued = issueToken({
        secret: context.tokenSecret,
        rnc: signer.holderId,
        environment,
        epoch: await context.store.tokenEpoch(),
        now,
        ttlSeconds: context.tokenTtlSeconds,
      });
      return answer(request, reply, 200, 'RespuestaAutenticacion', {
        token: issued.token,
        expira: formatTokenDate(issued.expiresAt),
        expedido: formatTokenDate(issued.issuedAt),
      });
    },
  );
}
