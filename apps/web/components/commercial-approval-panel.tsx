'use client';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Banner,
  Button,
  ConfirmDialog,
  Panel,
  Select,
  StatusBadge,
  TechnicalDetails,
  TextField,
  type TStatusTone,
} from '@ecf/ui';
import { COMMERCIAL_RECONCILIATION_LABELS, labelOf } from '../lib/catalogue.ts';
import type { TEnvironment } from '../lib/environments.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import {
  ZReconcileCommercialApprovalInput,
  ZSubmitCommercialApprovalInput,
  type TCommercialApprovalPanelView,
} from '../server/routers/commercial-approvals/commercial-approval.schema.ts';
import { useFormErrors } from './use-form-errors.ts';
import styles from './commercial-approval-panel.module.css';

const TAXAUTH_LABELS: Record<TCommercialApprovalPanelView['taxauth']['status'], [string, TStatusTone]> = {
  pending: ['Enviando a la DGII', 'info'],
  accepted: ['Aceptada por la DGII', 'success'],
  rejected: ['Rechazada por la DGII', 'danger'],
  uncertain: ['Sin respuesta de la DGII', 'warning'],
  not_applicable: ['No aplica', 'neutral'],
};

const DISPATCH_LABELS: Record<TCommercialApprovalPanelView['dispatch']['status'], [string, TStatusTone]> = {
  pending: ['Pendiente', 'info'],
  sending: ['Enviando al emisor', 'info'],
  retry_scheduled: ['Reintento programado', 'warning'],
  sent: ['Recibida por el emisor', 'success'],
  not_received: ['No recibida', 'danger'],
  uncertain: ['Incierta: concilie', 'warning'],
  dispatch_failed: ['Envío fallido', 'danger'],
  not_applicable: ['Sin envío al emisor', 'neutral'],
};

/** A form field's text ('' for a file or an absent field). */
function formText(value: FormDataEntryValue | null): string {
  return typeof value === 'string' ? value : '';
}

/** `datetime-local` value of now in Dominican Republic time (UTC-4), the default approval date. */
function dominicanNow(): string {
  return new Date(Date.now() - 4 * 3_600_000).toISOString().slice(0, 16);
}

function formatInstant(iso: string | null): string {
  if (iso === null) return '—';
  return new Intl.DateTimeFormat('es-DO', {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: 'America/Santo_Domingo',
  }).format(new Date(iso));
}

/**
 * The commercial approval (ACECF) of a received e-CF: the accept / reject form (date, default now;
 * reason, required to reject; a confirmation), then its state: the tax authority's answer, the
 * dispatch to the issuer (status, attempts, the next attempt, the kept body of its answer), and the
 * reconciliation form while uncertain. The received document's page places it.
 */
export function CommercialApprovalPanel(props: { environment: TEnvironment; inboundDocumentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const key = { environment: props.environment, inboundDocumentId: props.inboundDocumentId };
  const state = useQuery(trpc.commercialApprovals.get.queryOptions(key));
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.commercialApprovals.get.queryKey(key) });

  if (state.isPending) return <Panel title="Aprobación comercial">Cargando…</Panel>;
  if (state.isError)
    return (
      <Panel title="Aprobación comercial">
        <Banner tone="danger">No se pudo cargar la aprobación comercial.</Banner>
      </Panel>
    );
  const { commercialApproval, canApprove } = state.data;
  const answerable =
    canApprove &&
    (commercialApproval === null ||
      commercialApproval.supersededAt !== null ||
      commercialApproval.dispatch.status === 'dispatch_failed');
  return (
    <Panel title="Aprobación comercial">
      {commercialApproval === null ? (
        <p>Este e-CF aún no tiene aprobación comercial.</p>
      ) : (
        <ApprovalState approval={commercialApproval} />
      )}
      {answerable ? (
        <DecisionForm
          {...key}
          resendOf={
            commercialApproval?.dispatch.status === 'dispatch_failed' &&
            commercialApproval.supersededAt === null
              ? commercialApproval
              : null
          }
          onDone={refresh}
        />
      ) : null}
      {canApprove &&
      commercialApproval !== null &&
      commercialApproval.reconciliation === null &&
      (commercialApproval.dispatch.status === 'uncertain' ||
        commercialApproval.taxauth.status === 'uncertain') ? (
        <ReconcileForm
          {...key}
          onTaxauth={commercialApproval.taxauth.status === 'uncertain'}
          onDone={refresh}
        />
      ) : null}
    </Panel>
  );
}

function ApprovalState(props: { approval: TCommercialApprovalPanelView }) {
  const { approval } = props;
  const [taxauthLabel, taxauthTone] = TAXAUTH_LABELS[approval.taxauth.status];
  const [dispatchLabel, dispatchTone] = DISPATCH_LABELS[approval.dispatch.status];
  return (
    <>
      <dl className={styles.facts}>
        <dt>Decisión</dt>
        <dd>{approval.decision === 'accept' ? 'Aceptada' : 'Rechazada'}</dd>
        <dt>Fecha</dt>
        <dd>{formatInstant(approval.approvalDate)}</dd>
        {approval.rejectionReason === null ? null : (
          <>
            <dt>Motivo</dt>
            <dd>{approval.rejectionReason}</dd>
          </>
        )}
        <dt>DGII</dt>
        <dd>
          <StatusBadge tone={taxauthTone}>{taxauthLabel}</StatusBadge>
          {approval.taxauth.estado === null ? null : ` ${approval.taxauth.estado}`}
        </dd>
        {approval.taxauth.mensajes.length === 0 ? null : (
          <>
            <dt>Mensajes de la DGII</dt>
            <dd>{approval.taxauth.mensajes.join(' · ')}</dd>
          </>
        )}
        <dt>Envío al emisor</dt>
        <dd>
          <StatusBadge tone={dispatchTone}>{dispatchLabel}</StatusBadge>
          {approval.dispatch.attempts > 0 ? ` (${approval.dispatch.attempts} de 5 intentos)` : null}
        </dd>
        <dt>Destino</dt>
        <dd>
          {approval.targetUrl ??
            (approval.targetSource === 'not_applicable'
              ? 'Solo DGII (CerteCF)'
              : 'El emisor no está en el directorio')}
        </dd>
        {approval.dispatch.nextAttemptAt === null ? null : (
          <>
            <dt>Próximo intento</dt>
            <dd>{formatInstant(approval.dispatch.nextAttemptAt)}</dd>
          </>
        )}
        {approval.dispatch.httpStatus === null ? null : (
          <>
            <dt>Respuesta del emisor</dt>
            <dd>HTTP {approval.dispatch.httpStatus}</dd>
          </>
        )}
        {approval.dispatch.error === null ? null : (
          <>
            <dt>Problema</dt>
            <dd>
              <TechnicalDetails
                technical={`${approval.dispatch.error.reason}: ${approval.dispatch.error.message}`}
              >
                El envío al emisor no se completó.
              </TechnicalDetails>
            </dd>
          </>
        )}
        {approval.reconciliation === null ? null : (
          <>
            <dt>Conciliada</dt>
            <dd>
              {labelOf(COMMERCIAL_RECONCILIATION_LABELS, approval.reconciliation.outcome)} el{' '}
              {formatInstant(approval.reconciliation.reconciledAt)}
              {approval.reconciliation.note === null ? null : ` — ${approval.reconciliation.note}`}
            </dd>
          </>
        )}
      </dl>
      {approval.dispatch.body === null || approval.dispatch.body === '' ? null : (
        <>
          <p className={styles.label}>
            Cuerpo de la respuesta del emisor
            {approval.dispatch.responseTruncated
              ? ` (primeros 4 KB de ${approval.dispatch.responseBytes ?? '?'} bytes)`
              : ''}
          </p>
          <pre className={styles.body}>{approval.dispatch.body}</pre>
        </>
      )}
      {approval.supersededAt === null ? null : (
        <Banner tone="warning">La DGII no aceptó esta aprobación: corrija y envíe otra.</Banner>
      )}
    </>
  );
}

function DecisionForm(props: {
  environment: TEnvironment;
  inboundDocumentId: string;
  resendOf: TCommercialApprovalPanelView | null;
  onDone: () => Promise<void>;
}) {
  const trpc = useTRPC();
  const errors = useFormErrors();
  const [decision, setDecision] = useState<'accept' | 'reject'>(props.resendOf?.decision ?? 'accept');
  const [pending, setPending] = useState<ReturnType<typeof ZSubmitCommercialApprovalInput.parse> | null>(
    null,
  );
  const [outcome, setOutcome] = useState<string | null>(null);
  const submit = useMutation(trpc.commercialApprovals.submit.mutationOptions());

  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const reason = formText(form.get('rejectionReason'));
    const input = errors.check(ZSubmitCommercialApprovalInput, {
      environment: props.environment,
      inboundDocumentId: props.inboundDocumentId,
      decision,
      approvalDate: form.get('approvalDate'),
      ...(decision === 'reject' ? { rejectionReason: props.resendOf?.rejectionReason ?? reason } : {}),
    });
    if (input !== null) setPending(input);
  }

  async function confirm() {
    const input = pending;
    setPending(null);
    if (input === null) return;
    try {
      const result = await submit.mutateAsync(input);
      setOutcome(
        result.status === 502
          ? 'La DGII aceptó la aprobación; el emisor aún no la recibió (se reintenta automáticamente).'
          : result.status === 202
            ? 'Aprobación enviada a la DGII y recibida por el emisor.'
            : 'Aprobación registrada.',
      );
      await props.onDone();
    } catch (error) {
      errors.fail(error, {
        COMMERCIAL_APPROVAL_DATE_INVALID: 'approvalDate',
        ACECF_TARGET_URL_NOT_ALLOWED: 'form',
      });
    }
  }

  return (
    <form onSubmit={review} noValidate aria-label="Aprobación comercial del e-CF">
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      {outcome ? <Banner tone="info">{outcome}</Banner> : null}
      {props.resendOf === null ? (
        <Select
          label="Decisión"
          name="decision"
          value={decision}
          onChange={(event) => setDecision(event.currentTarget.value === 'reject' ? 'reject' : 'accept')}
          options={[
            { value: 'accept', label: 'Aceptar el e-CF' },
            { value: 'reject', label: 'Rechazar el e-CF' },
          ]}
          error={errors.fieldErrors['decision']}
        />
      ) : (
        <p>El envío al emisor falló: puede reenviar la misma aprobación firmada.</p>
      )}
      <TextField
        label="Fecha de la aprobación (hora de República Dominicana)"
        name="approvalDate"
        type="datetime-local"
        step={1}
        defaultValue={dominicanNow()}
        error={errors.fieldErrors['approvalDate']}
      />
      {decision === 'reject' && props.resendOf === null ? (
        <TextField
          label="Motivo del rechazo"
          name="rejectionReason"
          maxLength={250}
          required
          error={errors.fieldErrors['rejectionReason']}
        />
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" busy={submit.isPending} variant={decision === 'reject' ? 'danger' : 'primary'}>
          {props.resendOf !== null ? 'Reenviar al emisor' : decision === 'accept' ? 'Aceptar' : 'Rechazar'}
        </Button>
      </div>
      <ConfirmDialog
        open={pending !== null}
        title={decision === 'accept' ? '¿Aceptar este e-CF?' : '¿Rechazar este e-CF?'}
        confirmLabel={decision === 'accept' ? 'Aceptar' : 'Rechazar'}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      >
        <p>
          La aprobación comercial se firma con el certificado de la cuenta, se envía a la DGII y luego al
          emisor. No se puede cambiar la decisión después.
        </p>
      </ConfirmDialog>
    </form>
  );
}

function ReconcileForm(props: {
  environment: TEnvironment;
  inboundDocumentId: string;
  onTaxauth: boolean;
  onDone: () => Promise<void>;
}) {
  const trpc = useTRPC();
  const errors = useFormErrors();
  const [pending, setPending] = useState<ReturnType<typeof ZReconcileCommercialApprovalInput.parse> | null>(
    null,
  );
  const reconcile = useMutation(trpc.commercialApprovals.reconcile.mutationOptions());

  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = errors.check(ZReconcileCommercialApprovalInput, {
      environment: props.environment,
      inboundDocumentId: props.inboundDocumentId,
      outcome: form.get('outcome'),
      evidence: form.get('evidence') ?? undefined,
      note: form.get('note') ?? undefined,
    });
    if (input !== null) setPending(input);
  }

  async function confirm() {
    const input = pending;
    setPending(null);
    if (input === null) return;
    try {
      await reconcile.mutateAsync(input);
      await props.onDone();
    } catch (error) {
      errors.fail(error);
    }
  }

  const options = props.onTaxauth
    ? [
        { value: 'taxauth_accepted', label: 'La DGII la aceptó' },
        { value: 'taxauth_rejected', label: 'La DGII la rechazó' },
      ]
    : [
        { value: 'sent', label: 'El emisor la recibió' },
        { value: 'dispatch_failed', label: 'El emisor no la recibió' },
      ];
  return (
    <form onSubmit={review} noValidate aria-label="Conciliar la aprobación comercial">
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <Select label="Resultado" name="outcome" options={options} error={errors.fieldErrors['outcome']} />
      <label className={styles.label} htmlFor="approval-evidence">
        Evidencia (opcional): la respuesta obtenida
      </label>
      <textarea id="approval-evidence" name="evidence" className={styles.textarea} maxLength={32 * 1024} />
      {errors.fieldErrors['evidence'] ? (
        <p className={styles.error}>{errors.fieldErrors['evidence']}</p>
      ) : null}
      <TextField label="Nota (opcional)" name="note" maxLength={4000} error={errors.fieldErrors['note']} />
      <div className={styles.actions}>
        <Button type="submit" busy={reconcile.isPending}>
          Conciliar
        </Button>
      </div>
      <ConfirmDialog
        open={pending !== null}
        title="¿Fijar el resultado?"
        confirmLabel="Conciliar"
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      >
        <p>El resultado queda fijado para siempre; no se reenvía nada.</p>
      </ConfirmDialog>
    </form>
  );
}
