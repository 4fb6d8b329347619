import { findTenantCertificates, getCertificationCase, getFiscalAccount } from '@ecf/services';
import { readOnlyStepAction } from '../../../lib/certification-read-only.ts';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZPartnerAccountInput, ZPartnerAccountOutput } from './partner-account.schema.ts';

const DAY_MS = 86_400_000;

/**
 * One of the Partner's accounts (`/partner/accounts/{id}`): its production state, the active
 * certificate's expiry and where its certification stands (step N of 15, the case's state, the
 * next action in read-only words). Another Partner's id answers NOT_FOUND, exactly like none.
 */
export const getPartnerAccount = partnerProcedure('partner.accounts.read')
  .input(ZPartnerAccountInput)
  .output(ZPartnerAccountOutput)
  .query(async ({ ctx, input }) => {
    const account = await getFiscalAccount({
      database: ctx.database,
      partnerId: ctx.partner.id,
      accountId: input.accountId,
    });
    const [certificates, view] = await Promise.all([
      findTenantCertificates({ database: ctx.database, tenantId: account.tenant.id }),
      getCertificationCase({ database: ctx.database, tenant: account.tenant, environment: 'CerteCF' }),
    ]);
    const active = certificates.find((certificate) => certificate.active) ?? null;
    const now = ctx.now();
    const current = view.steps.find((step) => step.step === view.step);
    return {
      account: {
        id: account.id,
        externalTenantId: account.externalTenantId,
        rnc: account.rnc,
        legalName: account.profile.legalName,
        tradeName: account.profile.tradeName,
        productionState: account.productionState,
        createdAt: account.createdAt,
      },
      certificate:
        active === null
          ? null
          : {
              subject: active.subject,
              serialNumber: active.serialNumber,
              validFrom: active.validFrom,
              validTo: active.validTo,
              daysLeft: Math.floor((active.validTo.getTime() - now.getTime()) / DAY_MS),
            },
      certification: {
        caseId: view.caseId,
        state: view.state,
        stepNumber: current?.number ?? 1,
        stepTitle: current?.title ?? view.step,
        nextAction:
          view.nextAction === null ? null : readOnlyStepAction(view.nextAction.step, view.nextAction.action),
        completedSteps: view.steps.filter((step) => step.state === 'done').length,
      },
    };
  });
