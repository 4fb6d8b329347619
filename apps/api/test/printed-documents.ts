/**
 * Test support of the printed representation (not used by the app): documents signed for real with
 * fiscal-core (simplified E31 or E32 → validateSubmission → signEcfDocument with a throwaway
 * certificate) and stored as the worker stores them (document row + write-once `signed_xml`).
 */
import { randomInt } from 'node:crypto';
import { artifactData } from '@ecf/db';
import type { DocumentStatus, Environment, TDatabase } from '@ecf/db';
import {
  createTestCertificate,
  loadCertificate,
  parseSignatureDateTime,
  signEcfDocument,
  timbreUrlOf,
  validateSubmission,
  type TSigningCertificate,
} from '@ecf/fiscal-core';
import { accountDataOf } from '@ecf/services';
import { dominicanToday } from './submissions.ts';

const certificates = new Map<string, TSigningCertificate>();
function certificateFor(rnc: string): TSigningCertificate {
  const cached = certificates.get(rnc);
  if (cached) return cached;
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}` });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('test certificate');
  certificates.set(rnc, loaded.data);
  return loaded.data;
}

/** A fresh eNCF of a type (ten random digits). */
export function randomEncf(type: '31' | '32' = '31'): string {
  return `E${type}${String(randomInt(1, 2_000_000_000)).padStart(10, '0')}`;
}

export type TPrintableDocument = Awaited<ReturnType<typeof seedPrintableDocument>>;

/**
 * A signed document in `status` with its signed XML stored. `buyerEmail` null: no `CorreoComprador`.
 * A trackId is set for the statuses that had one (sent and the answers after it).
 */
export async function seedPrintableDocument(
  database: TDatabase,
  tenantId: string,
  options: {
    status?: DocumentStatus;
    environment?: Environment;
    buyerEmail?: string | null;
    type?: '31' | '32';
    signed?: boolean;
  } = {},
) {
  const tenant = await database.tenant.findUniqueOrThrow({ where: { id: tenantId } });
  const environment = options.environment ?? 'TesteCF';
  const type = options.type ?? '31';
  const encf = randomEncf(type);
  const year = Number(dominicanToday().slice(0, 4));
  const buyerEmail = options.buyerEmail === undefined ? 'compras@lospinos.com.do' : options.buyerEmail;
  const body = {
    type: `E${type}`,
    encf,
    ...(type === '31' ? { sequenceExpirationDate: `31-12-${year + 1}` } : {}),
    issueDate: dominicanToday(),
    ...(type === '31'
      ? {
          buyer: {
            rnc: '101672919',
            name: 'Ferretería Los Pinos SRL',
            ...(buyerEmail === null ? {} : { email: buyerEmail }),
          },
        }
      : buyerEmail === null
        ? {}
        : { buyer: { name: 'María Núñez', email: buyerEmail } }),
    paymentType: 'card',
    incomeType: '01',
    lines: [
      { name: 'Cemento gris 42.5 kg', quantity: 10, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' },
      { name: 'Transporte a obra', quantity: 1, unitPrice: '1500.00', itbisRate: 18, itemKind: 'service' },
    ],
  };
  const rawBody = JSON.stringify(body);
  const now = new Date();
  const validated = await validateSubmission(rawBody, { now, account: accountDataOf(tenant) });
  if (!validated.success) throw new Error(`fixture does not validate: ${JSON.stringify(validated.errors)}`);
  const signed = signEcfDocument(validated.data.document, certificateFor(tenant.rnc), now);
  if (!signed.success) throw new Error(`fixture does not sign: ${JSON.stringify(signed.issues)}`);
  const signatureDate = parseSignatureDateTime(signed.data.signedAt);
  if (!signatureDate.success) throw new Error('signature date');
  const status = options.status ?? 'accepted';
  const isSigned = options.signed ?? status !== 'queued_for_signing';
  const hasTrackId =
    ['sent', 'accepted', 'accepted_conditional', 'rejected', 'cancelled'].includes(status) && type === '31';
  const document = await database.document.create({
    data: {
      tenantId,
      environment,
      type: Number(type),
      encf,
      status,
      format: 'simplified',
      issueDate: new Date(`${dominicanToday()}T00:00:00Z`),
      totalAmount: '7080.00',
      buyerRnc: type === '31' ? '101672919' : null,
      submittedPayload: body,
      ...(isSigned
        ? {
            securityCode: signed.data.securityCode,
            qrUrl: timbreUrlOf(validated.data.document, signed.data, environment),
            signatureDate: signatureDate.data,
          }
        : {}),
      ...(hasTrackId ? { trackId: `track-${encf}` } : {}),
    },
  });
  if (isSigned) {
    await database.artifact.create({
      data: artifactData({
        tenantId,
        documentId: document.id,
        kind: 'signed_xml',
        contentType: 'application/xml',
        content: signed.data.xml,
      }),
    });
  }
  return {
    document,
    securityCode: signed.data.securityCode,
    signedAt: signed.data.signedAt,
    rnc: tenant.rnc,
  };
}

/** The text of a PDF as `pdftotext -layout` reads it (poppler-utils). */
export async function pdfText(pdf: Buffer): Promise<string> {
  const { execFile } = await import('node:child_process');
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const directory = await mkdtemp(path.join(tmpdir(), 'ecf-pdf-'));
  try {
    const file = path.join(directory, 'document.pdf');
    await writeFile(file, pdf);
    return await new Promise<string>((resolve, reject) => {
      execFile('pdftotext', ['-layout', file, '-'], (error, stdout) =>
        error ? reject(new Error(`pdftotext failed: ${error.message}`)) : resolve(stdout),
      );
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
