/**
 * Reception (issue 18, docs/receiving.md): the public services every taxpayer exposes (FACTS §2),
 * hosted for every tenant: the seed authentication, e-CF reception with its ARECF, and the
 * commercial approvals (ACECF) customers send on the tenants' issued e-CF.
 */
export { issueReceptionSeed, RECEPTION_SEED_TTL_MS } from './issue-reception-seed.ts';
export { validateReceptionCertificate, RECEPTION_TOKEN_TTL_MS } from './validate-reception-certificate.ts';
export { receiveEcf, type TReceiveEcfResult } from './receive-ecf.ts';
export {
  receiveCommercialApproval,
  type TApprovalCorrespondence,
  type TReceiveCommercialApprovalResult,
} from './receive-commercial-approval.ts';
export { receptionTokenSha256 } from './reception-token.ts';
export {
  DEFAULT_REFUSAL_POLICY,
  MAX_XML_ATTRIBUTES,
  MAX_XML_DEPTH,
  MAX_XML_ELEMENTS,
  NEVER_EXCHANGED_TYPES,
  RECEPTION_RETENTION_YEARS,
  type TRefusalPolicy,
} from './reception-model.ts';
export {
  createSenderCpuBudget,
  metered,
  type TCpuMeter,
  type TSenderCpuBudget,
  type TSenderCpuBudgetOptions,
} from './cpu-budget.ts';
