// The service's shapes, one place for the API, the Partner API, the portal (browser included) and,
// later, the SDK: nothing here touches Node, the database or secrets (README).
export * from './partner-key-profiles.ts';
export * from './webhook-event-types.ts';
export * from './webhook-payloads.ts';
export * from './sdk-operations.ts';
export * from './certification.ts';
export * from './commercial-approvals.ts';
export * from './ecf-types.ts';
export * from './submission-codes.ts';
export * from './document-lists.ts';
export * from './direct-api.ts';
export * from './partner-api.ts';
export * from './error-codes.ts';
export * from './route-errors.ts';
