import { getFirstSteps as getTenantFirstSteps, hasCapability, type TCapability } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZGetFirstStepsInput, ZGetFirstStepsOutput, type TFirstStep } from './get-first-steps.schema.ts';

/**
 * What each step reveals, as the page it links to guards it: an accountant (no keys, no webhooks)
 * gets neither of those steps, not even as pending, since "pending" already says something about
 * data they may not read.
 */
export const FIRST_STEP_CAPABILITIES: Record<TFirstStep['key'], TCapability> = {
  certificate: 'certificate.read',
  apiKey: 'keys.read',
  testDocument: 'documents.read',
  webhook: 'webhooks.read',
  certification: 'certification.read',
  production: 'certification.read',
};

/**
 * The overview's "Primeros pasos": certificate, TesteCF key, first accepted test e-CF, a webhook
 * receiving, certification step N of 15, production. Tenant-wide (the same in every environment).
 */
export const getFirstSteps = tenantProcedure('overview.read')
  .input(ZGetFirstStepsInput)
  .output(ZGetFirstStepsOutput)
  .query(async ({ ctx }) => {
    const facts = await getTenantFirstSteps({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      now: ctx.now(),
    });
    const all: TFirstStep[] = [
      { key: 'certificate', ...facts.certificate },
      { key: 'apiKey', ...facts.apiKey },
      { key: 'testDocument', ...facts.testDocument },
      { key: 'webhook', ...facts.webhook },
      { key: 'certification', ...facts.certification },
      { key: 'production', ...facts.production },
    ];
    const steps = all.filter((step) => hasCapability(ctx.principal, FIRST_STEP_CAPABILITIES[step.key]));
    return { steps, complete: steps.every((step) => step.state === 'done') };
  });
