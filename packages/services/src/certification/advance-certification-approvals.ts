import type { TDatabase, TEnqueue } from '@ecf/db';
import { signXml, type TXsdValidators } from '@ecf/fiscal-core';
import type { TTaxauthClient } from '@ecf/taxauth-client';
import { resolveDocumentCertificate, type TCertificateSource } from '../accounts/index.ts';
import { taxauthOutcomeOf } from '../commercial-approvals/index.ts';
import {
  changeApprovalItem,
  claimChainStep,
  continueChain,
  findApprovalItems,
  findApprovalSend,
  finishApprovalSend,
  inCertificationTransaction,
  type TApprovalItemRow,
} from '../persistence/index.ts';
import { buildRowAcecf } from './certification-acecf.ts';
import { moveCase } from './certification-guards.ts';

/** How long one approval's step may hold the chain before the safety job of the next generation. */
export const APPROVALS_LEASE_SECONDS = 30;

/** The wait before a send the tax authority did not answer (or the service was down) is tried again. */
export const APPROVAL_RETRY_SECONDS = 30;

export type TApprovalsAdvanceReport = {
  sendId: string;
  outcome: 'stale' | 'ended' | 'signed' | 'accepted' | 'rejected' | 'retry' | 'succeeded' | 'failed';
  position?: number;
};

/**
 * One step of a commercial approvals send (`certification.send-approvals`): the first item not
 * accepted is signed (its ACECF built from the row as written and stored before it leaves, so a
 * resend after a crash sends the same bytes) or sent to the tax authority (CerteCF). Accepted: the
 * next item follows at once; rejected: the send fails (the first rejection stops it); no answer or
 * the service down: the same signed ACECF is sent again later. All accepted: the step completes.
 */
export async function advanceCertificationApprovals(
  options: TCertificateSource & {
    database: TDatabase;
    sendId: string;
    generation: number;
    enqueue: TEnqueue;
    clientFor: (environment: 'CerteCF') => TTaxauthClient;
    xsd?: TXsdValidators | undefined;
    now: () => Date;
  },
): Promise<TApprovalsAdvanceReport> {
  const { database, sendId } = options;
  const claim = await claimChainStep(database, {
    table: 'certification_approval_sends',
    id: sendId,
    generation: options.generation,
    leaseSeconds: APPROVALS_LEASE_SECONDS,
    now: options.now(),
    enqueue: options.enqueue,
  });
  if (claim === null) return { sendId, outcome: 'stale' };
  const send = await findApprovalSend(database, { sendId, tenantId: null });
  if (send === null || (send.state !== 'queued' && send.state !== 'running'))
    return { sendId, outcome: 'ended' };
  const items = await findApprovalItems(database, sendId);
  const rejected = items.find((item) => item.state === 'rejected');
  const next = items.find((item) => item.state === 'pending' || item.state === 'signed');
  const hand = async (afterSeconds: number) =>
    continueChain(database, {
      table: 'certification_approval_sends',
      id: sendId,
      generation: claim.generation,
      afterSeconds,
      now: options.now(),
      enqueue: options.enqueue,
    });
  if (rejected !== undefined) return finish(options, send.caseId, 'failed', rejected);
  if (next === undefined) return finish(options, send.caseId, 'succeeded', undefined);

  const resolved = await resolveDocumentCertificate({
    ...options,
    tenantId: send.tenantId,
    step: 'advanceCertificationApprovals',
  });
  if (!resolved.ok) {
    // Without a certificate nothing is signed or sent: the send waits for one.
    await hand(APPROVAL_RETRY_SECONDS);
    return { sendId, outcome: 'retry', position: next.position };
  }
  if (next.state === 'pending') {
    const xml = signedAcecfOf(next, resolved.certificate, options.xsd);
    if (!xml.ok) {
      await changeApprovalItem(database, {
        sendId,
        position: next.position,
        from: 'pending',
        to: 'rejected',
        answer: { codigo: null, estado: null, mensajes: [xml.message], error: { reason: 'not_buildable' } },
        now: options.now(),
      });
      await hand(0);
      return { sendId, outcome: 'rejected', position: next.position };
    }
    await changeApprovalItem(database, {
      sendId,
      position: next.position,
      from: 'pending',
      to: 'signed',
      signedXml: xml.xml,
      now: options.now(),
    });
    await hand(0);
    return { sendId, outcome: 'signed', position: next.position };
  }
  const taxpayer = options
    .clientFor('CerteCF')
    .forTaxpayer({ cacheKey: send.tenantId, certificate: resolved.certificate });
  const outcome = await taxauthOutcomeOf(() =>
    taxpayer.sendCommercialApproval({ xml: next.signedXml ?? '' }),
  );
  if (outcome.state === 'accepted' || outcome.state === 'rejected') {
    await changeApprovalItem(database, {
      sendId,
      position: next.position,
      from: 'signed',
      to: outcome.state,
      answer: outcome.answer,
      now: options.now(),
    });
    await hand(0);
    return { sendId, outcome: outcome.state, position: next.position };
  }
  // No answer, an unreadable one or the service down: the same signed ACECF goes again (the tax
  // authority answers an identical ACECF as it did the first time).
  await hand(APPROVAL_RETRY_SECONDS);
  return { sendId, outcome: 'retry', position: next.position };
}

function signedAcecfOf(
  item: TApprovalItemRow,
  certificate: Parameters<typeof signXml>[1],
  xsd: TXsdValidators | undefined,
): { ok: true; xml: string } | { ok: false; message: string } {
  const built = buildRowAcecf(item.values);
  if (!built.success)
    return { ok: false, message: built.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ') };
  const xml = signXml(built.data, certificate).xml;
  if (xsd !== undefined) {
    const checked = xsd.validateXml(xml);
    if (!checked.success)
      return {
        ok: false,
        message: `ACECF v.1.0.xsd: ${checked.issues.map((issue) => issue.message).join('; ')}`,
      };
  }
  return { ok: true, xml };
}

async function finish(
  options: { database: TDatabase; sendId: string; now: () => Date },
  caseId: string,
  state: 'succeeded' | 'failed',
  rejected: TApprovalItemRow | undefined,
): Promise<TApprovalsAdvanceReport> {
  const now = options.now();
  const failure =
    rejected === undefined
      ? null
      : {
          code: 'ACECF_TAXAUTH_REJECTED',
          message: `The tax authority rejected the commercial approval of ${rejected.encf} (row ${rejected.sheetRow}).`,
          encf: rejected.encf,
          row: rejected.sheetRow,
          answer: rejected.answer,
        };
  // The send's end and the step it completes in one transaction, as a run's end and its case's move.
  await inCertificationTransaction(options.database, async (sql) => {
    const ended = await finishApprovalSend(options.database, {
      sendId: options.sendId,
      state,
      failure,
      now,
      sql,
    });
    if (ended && state === 'succeeded') {
      await moveCase({
        database: options.database,
        caseId,
        now,
        sql,
        complete: [
          { step: 'data_tests_commercial_approval', source: 'approvals', reference: options.sendId },
        ],
      });
    }
  });
  return { sendId: options.sendId, outcome: state };
}
