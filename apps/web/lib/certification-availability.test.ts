import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { CERTIFICATION_STEP_INFO, CERTIFICATION_STEPS, stepsOfPart } from '@ecf/services';
import type { ZCaseView } from '../server/routers/certification/certification.schema.ts';
import {
  activationUnavailableReason,
  PART_STEPS,
  restartUnavailableReason,
} from './certification-availability.ts';

type TCase = z.infer<typeof ZCaseView>;
type TRun = TCase['runs'][number];

/** A case view with the first `done` steps completed. */
function caseWith(done: number, patch: Partial<TCase> = {}): TCase {
  return {
    caseId: '00000000-0000-4000-8000-000000000001',
    state: 'in_progress',
    step: CERTIFICATION_STEPS[done] ?? 'finished',
    createdAt: '2026-01-01T00:00:00.000Z',
    approvedAt: null,
    steps: CERTIFICATION_STEPS.map((step, index) => ({
      step,
      number: index + 1,
      title: CERTIFICATION_STEP_INFO[step].title,
      completedBy: CERTIFICATION_STEP_INFO[step].completedBy,
      state: index < done ? 'done' : index === done ? 'current' : 'pending',
      completedAt: index < done ? '2026-01-02T00:00:00.000Z' : null,
      source: null,
      action: CERTIFICATION_STEP_INFO[step].action,
    })),
    nextAction: null,
    runs: [],
    commercialApprovals: null,
    production: { state: 'not_requested' },
    serviceUrls: null,
    ...patch,
  };
}

function run(part: 'data' | 'simulation', replacedAt: string | null = null): TRun {
  const totals = { documents: 1, pending: 0, issued: 1, accepted: 0, rejected: 1, failed: 0, stopped: 0 };
  return {
    runId: '00000000-0000-4000-8000-000000000002',
    part,
    source: 'workbook',
    state: 'failed',
    createdAt: '2026-01-02T00:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    replacedAt,
    totals,
    failure: null,
  };
}

test('the restart of a part undoes the steps the service undoes', () => {
  assert.deepEqual(PART_STEPS.data, stepsOfPart('data'));
  assert.deepEqual(PART_STEPS.simulation, stepsOfPart('simulation'));
});

test('production activation: only once steps 1 to 13 are done; the reason names the first step missing', () => {
  assert.match(
    activationUnavailableReason(caseWith(0, { caseId: null, state: 'not_started' })) ?? '',
    /^Se habilita después de la declaración jurada \(paso 13\), con los pasos 1 a 13 hechos\. Pendiente: «1\. Registrado» y 12 paso\(s\) más\.$/,
  );
  assert.match(
    activationUnavailableReason(caseWith(3)) ?? '',
    /Pendiente: «4\. Simulación e-CF» y 9 paso\(s\) más\./,
  );
  assert.match(activationUnavailableReason(caseWith(12)) ?? '', /Pendiente: «13\. Declaración jurada»\.$/);
  assert.equal(activationUnavailableReason(caseWith(13)), null);
  assert.equal(activationUnavailableReason(caseWith(13, { production: { state: 'pending' } })), null);
  assert.match(
    activationUnavailableReason(caseWith(13, { production: { state: 'suspended' } })) ?? '',
    /suspendida por el operador/,
  );
});

test('restart: nothing to restart without a case, after approval, or without a live run, step or approvals send', () => {
  assert.match(
    restartUnavailableReason(caseWith(0, { caseId: null, state: 'not_started' }), 'data') ?? '',
    /al subir el set de pruebas/,
  );
  assert.match(restartUnavailableReason(caseWith(15, { state: 'approved' }), 'data') ?? '', /ya terminó/);
  // Step 1 done (a set uploaded), no run yet: neither part has anything.
  assert.match(restartUnavailableReason(caseWith(1), 'data') ?? '', /No hay pruebas de datos que reiniciar/);
  assert.match(restartUnavailableReason(caseWith(1), 'simulation') ?? '', /No hay simulación que reiniciar/);
  // A failed data run: the data tests can restart, the simulation still cannot.
  const failed = caseWith(1, { state: 'failed', runs: [run('data')] });
  assert.equal(restartUnavailableReason(failed, 'data'), null);
  assert.match(restartUnavailableReason(failed, 'simulation') ?? '', /No hay simulación/);
  // Once restarted, the run is replaced: nothing left to restart.
  assert.match(
    restartUnavailableReason(caseWith(1, { runs: [run('data', '2026-01-03T00:00:00.000Z')] }), 'data') ?? '',
    /No hay pruebas de datos/,
  );
  // A part's step done (here by attestation, without a run) can be undone.
  assert.equal(restartUnavailableReason(caseWith(6), 'simulation'), null);
  assert.equal(restartUnavailableReason(caseWith(2), 'data'), null);
});
