// Seed helpers (issue 18): received rows as the public reception routes write them,
// seeded directly: an `inbound_documents` row and, when a copy is kept, its write-once artifact
// (`received_xml` or `commercial_approval`, SHA-256 checked by the database, kept 10 years).
import { randomUUID } from 'node:crypto';
import { artifactData } from './artifacts.ts';
import type { TDatabase } from './client.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { Environment } from './generated/prisma/enums.ts';

let sequence = 0;

/** A unique eNCF of a type for seeds (`E31` + 10 digits). */
export function seedEncf(type = '31'): string {
  sequence += 1;
  return `E${type}${String((Date.now() % 1_000_000) * 1000 + sequence)
    .padStart(10, '0')
    .slice(-10)}`;
}

export type TInboundSeed = {
  tenantId: string;
  environment?: Environment;
  kind?: 'ecf' | 'commercial_approval';
  status?: 'received' | 'not_received' | 'rejected' | 'duplicate';
  notReceivedCode?: number | null;
  notReceivedReason?: string | null;
  issuerRnc?: string;
  issuerName?: string | null;
  buyerRnc?: string | null;
  encf?: string;
  ecfType?: number;
  issueDate?: string | null;
  totalAmount?: string | null;
  decision?: 'accepted' | 'rejected' | null;
  decisionReason?: string | null;
  decidedAtText?: string | null;
  documentId?: string | null;
  correspondence?: Prisma.InputJsonObject | null;
  /** The bytes kept; null keeps no copy. Default: a small XML. */
  xml?: string | Buffer | null;
  signer?: Prisma.InputJsonObject | null;
  receivedAt?: Date;
  approvalDeadline?: string | null;
  taxauthValidity?: Prisma.InputJsonObject | null;
};

/** Inserts a received row (and its kept copy); returns the row's id and artifact id. */
export async function seedInbound(database: TDatabase, input: TInboundSeed) {
  const kind = input.kind ?? 'ecf';
  const encf = input.encf ?? seedEncf(String(input.ecfType ?? 31));
  const issuerRnc = input.issuerRnc ?? '131880681';
  const buyerRnc = input.buyerRnc === undefined ? '101000001' : input.buyerRnc;
  const xml =
    input.xml === undefined
      ? `\uFEFF<?xml version="1.0" encoding="utf-8"?><ECF xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Encabezado><eNCF>${encf}</eNCF></Encabezado></ECF>`
      : input.xml;
  const artifact =
    xml === null
      ? null
      : await database.artifact.create({
          data: {
            ...artifactData({
              tenantId: input.tenantId,
              documentId: null,
              kind: kind === 'ecf' ? 'received_xml' : 'commercial_approval',
              contentType: 'application/xml',
              content: typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml,
            }),
            retainUntil: new Date(Date.now() + 10 * 366 * 86_400_000),
          },
        });
  const status = input.status ?? 'received';
  const row = await database.inboundDocument.create({
    data: {
      id: randomUUID(),
      tenantId: input.tenantId,
      environment: input.environment ?? 'TesteCF',
      kind,
      status,
      notReceivedCode: input.notReceivedCode ?? (status === 'not_received' ? 1 : null),
      notReceivedReason: input.notReceivedReason ?? (status === 'received' ? null : 'refused in a test'),
      issuerRnc,
      issuerName: input.issuerName === undefined ? 'Proveedor de Prueba SRL' : input.issuerName,
      buyerRnc,
      encf,
      ecfType: input.ecfType ?? Number(encf.slice(1, 3)),
      issueDate: input.issueDate === null ? null : new Date(`${input.issueDate ?? '2026-11-02'}T00:00:00Z`),
      totalAmount: input.totalAmount === null ? null : (input.totalAmount ?? '11800.00'),
      decision: input.decision ?? null,
      decisionReason: input.decisionReason ?? null,
      decidedAtText: input.decidedAtText ?? null,
      documentId: input.documentId ?? null,
      ...(input.correspondence ? { correspondence: input.correspondence } : {}),
      fileName: `${kind === 'ecf' ? issuerRnc : (buyerRnc ?? '')}${encf}.xml`,
      xmlArtifactId: artifact?.id ?? null,
      ...(input.signer === null
        ? {}
        : { signer: input.signer ?? { holderId: issuerRnc, matchesIssuer: true } }),
      ...(input.receivedAt ? { receivedAt: input.receivedAt } : {}),
      ...(input.approvalDeadline
        ? { approvalDeadline: new Date(`${input.approvalDeadline}T00:00:00Z`) }
        : {}),
      ...(input.taxauthValidity ? { taxauthValidity: input.taxauthValidity } : {}),
    },
  });
  return { id: row.id, encf, artifactId: artifact?.id ?? null, row };
}

/**
 * Corrupts a kept copy in the test database (artifacts are write-once by trigger and their digest
 * is checked by a CHECK constraint): both are lifted for this one UPDATE, in one transaction, and put back (the CHECK as NOT VALID,
 * so it still guards every later write).
 */
export async function corruptArtifact(database: TDatabase, artifactId: string): Promise<void> {
  await database.$transaction([
    database.$executeRawUnsafe(`ALTER TABLE "artifacts" DISABLE TRIGGER "artifacts_write_once"`),
    database.$executeRawUnsafe(`ALTER TABLE "artifacts" DROP CONSTRAINT "artifacts_sha256_matches_content"`),
    database.$executeRawUnsafe(
      `UPDATE "artifacts" SET "content" = "content" || '\\x20'::bytea WHERE "id" = $1::uuid`,
      artifactId,
    ),
    database.$executeRawUnsafe(
      `ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_sha256_matches_content" CHECK ("sha256" = encode(sha256("content"), 'hex')) NOT VALID`,
    ),
    database.$executeRawUnsafe(`ALTER TABLE "artifacts" ENABLE TRIGGER "artifacts_write_once"`),
  ]);
}
