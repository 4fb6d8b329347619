/**
 * Certificates through the Partner API: upload and rotation sessions bound to a browser origin,
 * the certificate's metadata, and the upload itself (`PUT /certificate-upload-sessions/{uploadId}`,
 * multipart, `Authorization: Upload <uploadToken>`, CORS for the session's origin only).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  CERTIFICATE_FILE_MAX_BYTES,
  createCertificateUploadSession,
  findTenantCertificates,
  findUploadSessionOrigin,
  openUploadSession,
  uploadCertificateWithSession,
  type TCertificateKeyring,
  type TTenantCertificateMetadata,
} from '@ecf/services';
import { PARTNER_ROUTES, PARTNER_UPLOAD_ROUTE, PARTNER_UPLOAD_PREFLIGHT_ROUTE } from '@ecf/contract';
import { accountOf, parsePartner, partnerPrincipalOf, type TPartnerAuthContext } from './partner-auth.ts';
import { partnerRoute } from './partner-routes.ts';

export type TPartnerCertificateRoutesOptions = TPartnerAuthContext & {
  keyring: TCertificateKeyring | undefined;
};

/** Metadata of a certificate: never the key or the file. */
export function certificateBodyOf(certificate: TTenantCertificateMetadata) {
  return {
    id: certificate.id,
    holderId: certificate.holderId,
    subject: certificate.subject,
    serialNumber: certificate.serialNumber,
    validFrom: certificate.validFrom.toISOString(),
    validTo: certificate.validTo.toISOString(),
    keyUsage: certificate.keyUsage,
    active: certificate.active,
    installedAt: certificate.createdAt.toISOString(),
  };
}

const payload = (path: string, message: string) =>
  new AppError('INVALID_PARTNER_PAYLOAD', `${path}: ${message}`, {
    details: { path, issues: [{ path, code: 'invalid', message }] },
  });

/** The `file` and `password` parts of the upload (bounded: 64 KiB of file, one password). */
async function readUpload(request: FastifyRequest): Promise<{ p12: Buffer; password: string }> {
  if (!request.isMultipart())
    throw payload('body', 'send multipart/form-data with the parts file and password');
  let p12: Buffer | undefined;
  let password: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file' && p12 === undefined) p12 = bytes;
      } else if (part.fieldname === 'password' && typeof part.value === 'string') {
        if (part.valueTruncated) throw payload('password', 'too long');
        password = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('BODY_TOO_LARGE', 'The upload exceeds its limits (a file of 64 KiB, one password).', {
      details: { limitBytes: CERTIFICATE_FILE_MAX_BYTES },
    });
  }
  if (p12 === undefined || p12.length === 0) throw payload('file', 'the part file (the PKCS#12) is missing');
  if (password === undefined) throw payload('password', 'the part password is missing');
  return { p12, password };
}

function uploadTokenOf(request: FastifyRequest): string | undefined {
  const match = /^Upload\s+(\S+)\s*$/i.exec(String(request.headers.authorization ?? ''));
  return match?.[1];
}

/** CORS of an upload answer: only the session's origin, and only when the browser sent it. */
function allowOrigin(reply: FastifyReply, request: FastifyRequest, origin: string): void {
  reply.header('vary', 'Origin');
  if (request.headers.origin === origin) reply.header('access-control-allow-origin', origin);
}

export function registerPartnerCertificateRoutes(
  app: FastifyInstance,
  options: TPartnerCertificateRoutesOptions,
): void {
  const { database } = options;
  const R = PARTNER_ROUTES;
  const keyringOf = () => {
    if (options.keyring === undefined)
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'Certificates cannot be stored: CERTIFICATE_MASTER_KEY is not set.',
        {
          details: { reason: 'keyring_missing' },
        },
      );
    return options.keyring;
  };

  for (const [contract, purpose] of [
    [R.createCertificateUploadSession, 'upload'],
    [R.createCertificateRotationRequest, 'rotation'],
  ] as const) {
    partnerRoute(app, options, contract, async (request, reply) => {
      const account = accountOf(request);
      const body = parsePartner(contract.body, request.body, 'body');
      const session = await createCertificateUploadSession({
        database,
        partnerId: partnerPrincipalOf(request).partner.id,
        tenantId: account.id,
        browserOrigin: body.browserOrigin,
        purpose,
      });
      return reply.code(201).send({
        ok: true,
        fiscalAccountId: account.id,
        ...session,
        uploadUrl: `/partner/v1/certificate-upload-sessions/${session.uploadId}`,
        expiresAt: session.expiresAt.toISOString(),
      });
    });
  }

  partnerRoute(app, options, R.getCertificate, async (request) => {
    const account = accountOf(request);
    const certificates = await findTenantCertificates({ database, tenantId: account.id });
    const active = certificates.find((certificate) => certificate.active) ?? null;
    return {
      ok: true,
      fiscalAccountId: account.id,
      certificate: active === null ? null : certificateBodyOf(active),
    };
  });

  // The upload: its own scope (multipart parser), no partner key: the session's token is the credential.
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: CERTIFICATE_FILE_MAX_BYTES,
        files: 1,
        fields: 4,
        fieldSize: 1024,
        parts: 6,
        headerPairs: 20,
      },
    });
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    scope.route({
      method: 'OPTIONS',
      url: PARTNER_UPLOAD_PREFLIGHT_ROUTE.path,
      handler: async (request, reply) => {
        const { uploadId } = parsePartner(PARTNER_UPLOAD_ROUTE.params, request.params, 'path');
        const origin = await findUploadSessionOrigin({ database, uploadId });
        if (origin !== null && request.headers.origin === origin) {
          reply
            .header('access-control-allow-origin', origin)
            .header('access-control-allow-methods', 'PUT')
            .header('access-control-allow-headers', 'authorization, content-type')
            .header('access-control-max-age', '600');
        }
        return reply.header('vary', 'Origin').code(204).send();
      },
    });

    scope.route({
      method: 'PUT',
      url: PARTNER_UPLOAD_ROUTE.path,
      handler: async (request, reply) => {
        const { uploadId } = parsePartner(PARTNER_UPLOAD_ROUTE.params, request.params, 'path');
        const token = uploadTokenOf(request);
        const now = new Date();
        // CORS first, from the open session's origin, so the browser can read every refusal below
        // (a wrong token, the attempts used up); then the session itself (token, expiry, Partner, attempts).
        const knownOrigin = await findUploadSessionOrigin({ database, uploadId });
        if (knownOrigin !== null) allowOrigin(reply, request, knownOrigin);
        const session = await openUploadSession({ database, uploadId, uploadToken: token, now });
        allowOrigin(reply, request, session.browserOrigin);
        const origin = request.headers.origin;
        if (origin !== undefined && origin !== session.browserOrigin)
          throw new AppError(
            'UPLOAD_ORIGIN_MISMATCH',
            'This upload session belongs to another browser origin.',
          );
        const upload = await readUpload(request);
        const result = await uploadCertificateWithSession({
          database,
          keyring: keyringOf(),
          uploadId,
          uploadToken: token,
          p12: upload.p12,
          password: upload.password,
          now: () => now,
        });
        return reply.code(200).send({
          ok: true,
          fiscalAccountId: result.session.tenantId,
          uploadId: result.session.id,
          certificate: certificateBodyOf(result.certificate),
        });
      },
    });
  });
}
