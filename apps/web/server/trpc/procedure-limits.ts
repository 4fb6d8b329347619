/**
 * THE EDGE LIMITS OF EVERY tRPC PROCEDURE (issue 25): one line per procedure of `appRouter`, read by
 * the tRPC handler (`http.ts`) before a byte of input becomes a value. A POST body is read under the
 * line's `bodyBytes` and `bodyTimeoutMs`, a GET `input` parameter under its `bodyBytes`, and each
 * input is checked against its depth, string and array limits (and U+0000 / lone surrogates) by
 * `readJsonBody` of `@ecf/services`, the reader of every surface.
 *
 * A procedure with no line is not reachable over HTTP (404 `ROUTE_NOT_FOUND`, body unread), and
 * `procedure-limits.test.ts` walks the router and fails on a procedure without a line or a line
 * without a procedure: a new procedure cannot opt out by accident.
 *
 * Most inputs are small JSON commands (`SMALL_JSON_LIMITS`: 64 KiB, 10 s). The few that carry a file
 * or a document declare their own, sized from their zod schema's limit so that an input just over
 * it still reaches zod and gets the form's own message; `maxStringLength` is then the body's size
 * (a single string cannot exceed the body anyway).
 */
import { edgeLimits, SMALL_JSON_LIMITS, type TEdgeLimits } from '@ecf/services';

/** A large text input (a file in base64, a pasted document): `bodyBytes`, 30 s to arrive. */
function largeText(bodyBytes: number): TEdgeLimits {
  return edgeLimits(SMALL_JSON_LIMITS, { bodyBytes, bodyTimeoutMs: 30_000, maxStringLength: bodyBytes });
}

const KIB = 1024;
const MIB = 1024 * KIB;

const SMALL = SMALL_JSON_LIMITS;
/** A PKCS#12 of at most 64 KiB in base64 (87,384 characters) and its password (upload and preview). */
const CERTIFICATE_UPLOAD = largeText(128 * KIB);
/** Try it's JSON text: 1,000,000 characters, up to 6 bytes each once escaped in the body (`\uXXXX`). */
const TRY_IT_DOCUMENT = largeText(6 * MIB);
/** A certification workbook: 700 KiB of base64 (`WORKBOOK_BASE64_MAX_CHARACTERS`). */
const CERTIFICATION_WORKBOOK = largeText(1 * MIB);
/** A pasted XML (ARECF, the tax authority's answer): 256 KiB of text, quotes and line ends escaped. */
const PASTED_EVIDENCE = largeText(1 * MIB);
/** A commercial approval's reconciliation evidence: 32 KiB of text and a note. */
const APPROVAL_EVIDENCE = largeText(256 * KIB);

export const PROCEDURE_LIMITS: Readonly<Record<string, TEdgeLimits>> = Object.freeze({
  'session.current': SMALL,
  'session.switchTenant': SMALL,
  'session.signOutEverywhere': SMALL,
  'overview.get': SMALL,
  'overview.firstSteps': SMALL,
  'account.get': SMALL,
  'account.updateProfile': SMALL,
  'account.updateSettings': SMALL,
  'members.list': SMALL,
  'members.get': SMALL,
  'members.changeRole': SMALL,
  'members.remove': SMALL,
  'invitations.create': SMALL,
  'invitations.listPending': SMALL,
  'invitations.revoke': SMALL,
  'invitations.get': SMALL,
  'invitations.acceptAsNewUser': SMALL,
  'invitations.acceptAsCurrentUser': SMALL,
  'password.requestReset': SMALL,
  'password.completeReset': SMALL,
  'audit.list': SMALL,
  'apiKeys.list': SMALL,
  'apiKeys.create': SMALL,
  'apiKeys.revoke': SMALL,
  'certificate.list': SMALL,
  'certificate.preview': CERTIFICATE_UPLOAD,
  'certificate.upload': CERTIFICATE_UPLOAD,
  'documents.list': SMALL,
  'documents.get': SMALL,
  'documents.locate': SMALL,
  'live.documents': SMALL,
  'tryIt.preflight': TRY_IT_DOCUMENT,
  'tryIt.emit': TRY_IT_DOCUMENT,
  'tryIt.status': SMALL,
  'support.tenants': SMALL,
  'support.contingency': SMALL,
  'support.episodes': SMALL,
  'support.notifications': SMALL,
  'support.acknowledgeNotification': SMALL,
  'support.uncertainDeliveries': SMALL,
  'support.reconcileDelivery': PASTED_EVIDENCE,
  'webhooks.list': SMALL,
  'webhooks.get': SMALL,
  'webhooks.deliveries': SMALL,
  'webhooks.checkUrl': SMALL,
  'webhooks.create': SMALL,
  'webhooks.update': SMALL,
  'webhooks.retire': SMALL,
  'webhooks.rotateSecret': SMALL,
  'webhooks.sendTest': SMALL,
  'webhooks.replay': SMALL,
  'webhooks.retryNow': SMALL,
  'webhooks.createInbox': SMALL,
  'webhooks.inboxRequests': SMALL,
  'sequences.list': SMALL,
  'sequences.register': SMALL,
  'annulments.prevalidate': SMALL,
  'annulments.send': SMALL,
  'annulments.list': SMALL,
  'annulments.get': SMALL,
  'annulments.reconcile': PASTED_EVIDENCE,
  'commercialApprovals.get': SMALL,
  'commercialApprovals.submit': SMALL,
  'commercialApprovals.reconcile': APPROVAL_EVIDENCE,
  'inbound.listDocuments': SMALL,
  'inbound.getDocument': SMALL,
  'inbound.listApprovals': SMALL,
  'inbound.getApproval': SMALL,
  'certification.case': SMALL,
  'certification.prevalidate': CERTIFICATION_WORKBOOK,
  'certification.startRun': CERTIFICATION_WORKBOOK,
  'certification.run': SMALL,
  'certification.restart': SMALL,
  'certification.approvals': SMALL,
  'certification.sendApprovals': CERTIFICATION_WORKBOOK,
  'certification.attest': SMALL,
  'certification.resend': SMALL,
  'certification.requestActivation': SMALL,
  'partner.accounts': SMALL,
  'partner.account': SMALL,
  'partner.createCertificationLink': SMALL,
  'partner.createUploadSession': SMALL,
  'partner.keys': SMALL,
  'partner.createKey': SMALL,
  'partner.revokeKey': SMALL,
  'partner.origins': SMALL,
  'partner.addOrigin': SMALL,
  'partner.removeOrigin': SMALL,
  'partner.endpoints': SMALL,
  'partner.createEndpoint': SMALL,
  'partner.updateEndpoint': SMALL,
  'partner.retireEndpoint': SMALL,
  'partner.deliveries': SMALL,
  'partner.delivery': SMALL,
  'partner.replay': SMALL,
  'partner.billing': SMALL,
  'exports.issued': SMALL,
  'exports.received': SMALL,
  'exports.auditLog': SMALL,
  'exports.get': SMALL,
});

/** The limits of a procedure by its dotted path; null when no procedure of that name has a line. */
export function limitsOfProcedure(path: string): TEdgeLimits | null {
  return Object.hasOwn(PROCEDURE_LIMITS, path) ? (PROCEDURE_LIMITS[path] ?? null) : null;
}
