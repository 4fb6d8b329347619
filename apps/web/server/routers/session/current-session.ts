import { capabilitiesOf, partnerCapabilitiesOf, SUPPORT_ACTIONS } from '@ecf/services';
import { authedProcedure } from '../../trpc/procedures.ts';
import { ZCurrentSessionInput, ZCurrentSessionOutput } from './current-session.schema.ts';

/** Who is signed in, their tenants, the active one and what they may do there. */
export const currentSession = authedProcedure
  .input(ZCurrentSessionInput)
  .output(ZCurrentSessionOutput)
  .query(({ ctx }) => {
    const { session } = ctx;
    const nameOf = (tenant: { legalName: string; tradeName: string | null }) =>
      tenant.tradeName ?? tenant.legalName;
    return {
      user: session.user,
      tenants: session.tenants.map((tenant) => ({
        id: tenant.tenantId,
        rnc: tenant.rnc,
        name: nameOf(tenant),
        role: tenant.role,
      })),
      activeTenant:
        session.activeTenant === null
          ? null
          : {
              id: session.activeTenant.id,
              rnc: session.activeTenant.rnc,
              name: nameOf(session.activeTenant),
            },
      role:
        session.principal === null
          ? null
          : session.principal.kind === 'support'
            ? 'support'
            : session.principal.role,
      // Support without a chosen tenant still has its desk (the cross-tenant pages), nothing else.
      capabilities: [
        ...(session.principal !== null
          ? capabilitiesOf(session.principal)
          : session.user.isSupport
            ? [...SUPPORT_ACTIONS, 'support.read' as const]
            : []),
        // Someone who works for a Partner: the Partner pages their role allows (issue 20).
        ...(session.partner === null ? [] : partnerCapabilitiesOf(session.partner.role)),
      ],
      expiresAt: session.expiresAt.toISOString(),
    };
  });
