/**
 * The actions the portal writes to its audit log (`portal_audit_log.action`). Later pages add theirs
 * here (`key.created`, `certificate.uploaded`, `webhook.created`...), one documented line each.
 */
export const AUDIT_ACTIONS = {
  /** A user signed in (operator-level: no tenant). `targetId` the session. */
  SIGNED_IN: 'session.signed_in',
  /** A wrong password for an existing account (operator-level). `data.failedSignInCount`, `data.lockSeconds`. */
  SIGN_IN_FAILED: 'session.sign_in_failed',
  /** The user revoked every session of theirs (operator-level). `data.sessionsRevoked`. */
  SIGNED_OUT_EVERYWHERE: 'session.signed_out_everywhere',
  /** A password was set through a reset link; every session was revoked (operator-level). */
  PASSWORD_RESET: 'user.password_reset',
  /** An owner invited an address with a role. `data.email`, `data.role`. */
  MEMBER_INVITED: 'member.invited',
  /** An owner revoked a pending invitation. */
  INVITATION_REVOKED: 'member.invitation_revoked',
  /** An invitation was accepted: the membership exists. `data.newAccount`, `data.alreadyMember`. */
  INVITATION_ACCEPTED: 'member.joined',
  /** An owner changed a member's role. `data.previousRole`, `data.role`. */
  MEMBER_ROLE_CHANGED: 'member.role_changed',
  /** An owner removed a member (their sessions lost the tenant at once). */
  MEMBER_REMOVED: 'member.removed',
  /** An owner changed the account (`targetId` 'profile' or 'settings'). `data.before`, `data.after`: the changed fields. */
  ACCOUNT_UPDATED: 'account.updated',
  /** A member created an API key. `targetId` the key id; `data.prefix`, `data.environment`, `data.scopes`, `data.name` (never the key). */
  API_KEY_CREATED: 'api_key.created',
  /** A member revoked an API key. `targetId` the key id; `data.prefix`, `data.environment`. */
  API_KEY_REVOKED: 'api_key.revoked',
  /** A signing certificate was installed (the previous one inactive). `targetId` the certificate id; `data.serialNumber`, `data.holderId`, `data.validTo`, `data.via` (`portal` or `admin-cli`); never the file or password. */
  CERTIFICATE_UPLOADED: 'certificate.uploaded',
  /** A member created a webhook endpoint. `targetId` the endpoint id; `data.environment`, `data.name`, `data.url`, `data.eventTypes` (never the secret). */
  WEBHOOK_CREATED: 'webhook.created',
  /** A member changed an endpoint (name, URL, event types, pause/resume). `data.before`, `data.after`: the changed fields. */
  WEBHOOK_UPDATED: 'webhook.updated',
  /** A member retired (deleted) an endpoint; its queued deliveries failed. `data.failedDeliveries`. */
  WEBHOOK_RETIRED: 'webhook.retired',
  /** A member rotated an endpoint's secret. `data.overlapSeconds`, `data.previousSecretExpiresAt` (never a secret). */
  WEBHOOK_SECRET_ROTATED: 'webhook.secret_rotated',
  /** A member queued a `webhook.test` event to one endpoint. `data.eventId`, `data.deliveryId`. */
  WEBHOOK_TEST_SENT: 'webhook.test_sent',
  /** A member replayed a failed delivery. `targetId` the delivery id; `data.endpointId`, `data.eventId`, `data.attempts`, `data.maxAttempts`. */
  WEBHOOK_DELIVERY_REPLAYED: 'webhook.delivery_replayed',
  /**
   * Operator staff read this tenant's data. `targetType` 'portal', `targetId` what was read (the
   * tRPC procedure's path), `data.input` the non-secret input.
   */
  SUPPORT_VIEWED: 'support.viewed',
  /** Operator staff acted on this tenant through a named support action. `targetId` the action. */
  SUPPORT_ACTED: 'support.acted',
  /** A member exported documents or the audit log (CSV or Excel). `targetId` the export id; `data.kind`, `data.format`, `data.environment`, `data.scope` (month or filters), `data.rows` when built at once. */
  EXPORT_CREATED: 'export.created',
} as const;

export type TAuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];
