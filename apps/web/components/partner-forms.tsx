'use client';
/**
 * The Partner portal's forms and buttons (issue 20): keys with a profile (the key shown once),
 * browser origins, webhook endpoints (the secret shown once) and their actions, replays. Each calls
 * the `partner.*` procedures, which take the Partner from the session.
 */
import { PARTNER_KEY_PROFILES, type PARTNER_WEBHOOK_EVENT_TYPES } from '@ecf/contract';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, ConfirmDialog, CopyButton, Select, TextField } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import { partnerWebhookErrorMessage } from '../lib/partner-webhook-errors.ts';
import { failureOf } from '../lib/trpc-errors.ts';
import {
  PARTNER_KEY_PROFILE_LABELS,
  PARTNER_WEBHOOK_EVENT_TYPE_LABELS,
  PARTNER_WEBHOOK_EVENT_TYPES_PICKER_ORDER,
} from '../server/routers/partner/partner.schema.ts';
import {
  ZCreateEndpointInput,
  ZCreateKeyInput,
  ZOriginInput,
} from '../server/routers/partner/partner-procedures.schema.ts';
import styles from './api-key-create-form.module.css';
import { useFormErrors } from './use-form-errors.ts';
import { webhookIssueMessages } from './webhook-create-form.tsx';
import webhookStyles from './webhooks.module.css';

type TPartnerEventType = (typeof PARTNER_WEBHOOK_EVENT_TYPES)[number];

function Secret(props: { title: string; value: string; label: string }) {
  return (
    <Banner tone="success" title={props.title}>
      <p>Cópielo ahora y guárdelo en un lugar seguro: no se volverá a mostrar.</p>
      <div className={styles.secret}>
        <code className={styles.key} data-testid="partner-secret">
          {props.value}
        </code>
        <CopyButton value={props.value} label={props.label} copiedLabel="Copiado" />
      </div>
    </Banner>
  );
}

/** A new partner key with its profile; the clear key is shown once. */
export function PartnerKeyCreateForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const create = useMutation(trpc.partner.createKey.mutationOptions());
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setCreated(null);
    const input = errors.check(ZCreateKeyInput, { name: form.get('name'), profile: form.get('profile') });
    if (input === null) return;
    try {
      const answer = await create.mutateAsync(input);
      setCreated({ key: answer.key, name: answer.row.name });
      formElement.reset();
      router.refresh();
    } catch (error) {
      errors.fail(error);
    }
  }
  return (
    <>
      {created ? (
        <Secret title={`Clave «${created.name}» creada`} value={created.key} label="Copiar clave" />
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Crear una clave Partner">
        {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
        <TextField
          label="Nombre"
          name="name"
          maxLength={200}
          autoComplete="off"
          required
          error={errors.fieldErrors['name']}
        />
        <Select
          label="Perfil"
          name="profile"
          defaultValue="full"
          options={PARTNER_KEY_PROFILES.map((profile) => ({
            value: profile,
            label: PARTNER_KEY_PROFILE_LABELS[profile],
          }))}
          hint="Decide los permisos de la clave (X-PARTNER-KEY)."
        />
        <Button type="submit" busy={create.isPending}>
          Crear clave
        </Button>
      </form>
    </>
  );
}

/** Revokes a partner key after confirmation. */
export function PartnerKeyRevokeButton(props: { keyId: string; name: string; prefix: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const revoke = useMutation(trpc.partner.revokeKey.mutationOptions());
  return (
    <>
      <Button variant="secondary" size="small" onClick={() => setOpen(true)}>
        Revocar<span className="ecf-visually-hidden"> la clave {props.name}</span>
      </Button>
      <ConfirmDialog
        open={open}
        title={`¿Revocar la clave ${props.name}?`}
        confirmLabel="Revocar clave"
        busy={revoke.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          void revoke.mutateAsync({ keyId: props.keyId }).finally(() => {
            setOpen(false);
            router.refresh();
          });
        }}
      >
        Las integraciones que usan la clave {props.prefix}… dejarán de funcionar de inmediato.
      </ConfirmDialog>
    </>
  );
}

/** Registers an exact HTTPS origin. */
export function PartnerOriginForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const add = useMutation(trpc.partner.addOrigin.mutationOptions());
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const input = errors.check(ZOriginInput, { origin: new FormData(formElement).get('origin') });
    if (input === null) return;
    try {
      await add.mutateAsync(input);
      formElement.reset();
      router.refresh();
    } catch (error) {
      const failure = errors.fail(error);
      if (failure.appCode === 'INVALID_BROWSER_ORIGIN')
        errors.show({ origin: 'Escriba un origen HTTPS exacto: https://erp.ejemplo.com (sin ruta).' });
    }
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Registrar un origen">
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <TextField
        label="Origen"
        name="origin"
        placeholder="https://erp.ejemplo.com"
        required
        error={errors.fieldErrors['origin']}
        hint="La página que sube certificados de sus clientes (browserOrigin)."
      />
      <Button type="submit" busy={add.isPending}>
        Registrar origen
      </Button>
    </form>
  );
}

/** Removes a registered origin, after a confirmation that says what stops working. */
export function PartnerOriginRemoveButton(props: { origin: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [open, setOpen] = useState(false);
  const remove = useMutation(trpc.partner.removeOrigin.mutationOptions());
  return (
    <>
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <Button variant="secondary" size="small" onClick={() => setOpen(true)}>
        Quitar<span className="ecf-visually-hidden"> {props.origin}</span>
      </Button>
      <ConfirmDialog
        open={open}
        title={`¿Quitar el origen ${props.origin}?`}
        confirmLabel="Quitar origen"
        busy={remove.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          void remove
            .mutateAsync({ origin: props.origin })
            .then(
              () => router.refresh(),
              (error: unknown) => void errors.fail(error),
            )
            .finally(() => setOpen(false));
        }}
      >
        <p>
          Desde {props.origin} ya no se podrán abrir sesiones nuevas de carga de certificados ni de
          certificación embebida (browserOrigin). Las sesiones ya abiertas siguen hasta que venzan. Puede
          registrarlo otra vez cuando quiera.
        </p>
      </ConfirmDialog>
    </>
  );
}

/**
 * A Partner webhook endpoint; the secret is shown once. The event types are picked in a checkbox
 * group ("Todos los eventos" by default: every Partner type that exists now); a URL the server
 * refuses shows why on its field.
 */
export function PartnerWebhookCreateForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [created, setCreated] = useState<{ secret: string | null; name: string; replayed: boolean } | null>(
    null,
  );
  const [picked, setPicked] = useState<ReadonlySet<TPartnerEventType>>(
    () => new Set(PARTNER_WEBHOOK_EVENT_TYPES_PICKER_ORDER),
  );
  const everyType = picked.size === PARTNER_WEBHOOK_EVENT_TYPES_PICKER_ORDER.length;
  const [failed, setFailed] = useState<string | null>(null);
  const create = useMutation(trpc.partner.createEndpoint.mutationOptions());
  const toggle = (type: TPartnerEventType, checked: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      if (checked) next.add(type);
      else next.delete(type);
      return next;
    });
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setCreated(null);
    setFailed(null);
    if (picked.size === 0) {
      errors.show({ eventTypes: 'Elija al menos un tipo de evento.' });
      return;
    }
    const input = errors.check(ZCreateEndpointInput, {
      name: form.get('name'),
      url: form.get('url'),
      eventTypes: everyType
        ? 'all'
        : PARTNER_WEBHOOK_EVENT_TYPES_PICKER_ORDER.filter((type) => picked.has(type)),
    });
    if (input === null) return;
    try {
      const answer = await create.mutateAsync(input);
      setCreated({ secret: answer.signingSecret, name: answer.endpoint.name, replayed: answer.replayed });
      formElement.reset();
      setPicked(new Set(PARTNER_WEBHOOK_EVENT_TYPES_PICKER_ORDER));
      router.refresh();
    } catch (error) {
      const failure = errors.fail(error);
      const fields = webhookIssueMessages(failure.details);
      if (Object.keys(fields).length > 0) errors.show(fields);
      else setFailed(partnerWebhookErrorMessage(failure, 'create'));
    }
  }
  const typesError = errors.fieldErrors['eventTypes'] ?? errors.fieldErrors['eventTypes.0'];
  return (
    <>
      {created?.secret ? (
        <Secret title={`Endpoint «${created.name}» creado`} value={created.secret} label="Copiar secreto" />
      ) : created?.replayed ? (
        <Banner tone="info">Ya existe un endpoint con esa URL; su secreto no se vuelve a mostrar.</Banner>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Crear un endpoint Partner">
        {(failed ?? errors.message) ? <Banner tone="danger">{failed ?? errors.message}</Banner> : null}
        <TextField label="Nombre" name="name" maxLength={200} required error={errors.fieldErrors['name']} />
        <TextField
          label="URL (HTTPS pública)"
          name="url"
          maxLength={2048}
          required
          error={errors.fieldErrors['url']}
        />
        <fieldset
          className={webhookStyles.types}
          aria-describedby={typesError ? 'partner-event-types-error' : undefined}
        >
          <legend className={webhookStyles.legend}>Eventos</legend>
          <label className={webhookStyles.type}>
            <input
              type="checkbox"
              checked={everyType}
              onChange={(event) =>
                setPicked(
                  event.target.checked ? new Set(PARTNER_WEBHOOK_EVENT_TYPES_PICKER_ORDER) : new Set(),
                )
              }
            />
            <span>Todos los eventos</span>
          </label>
          {PARTNER_WEBHOOK_EVENT_TYPES_PICKER_ORDER.map((type) => (
            <label key={type} className={webhookStyles.type}>
              <input
                type="checkbox"
                name="eventTypes"
                value={type}
                checked={picked.has(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />
              <span>
                {PARTNER_WEBHOOK_EVENT_TYPE_LABELS[type]} <span className={webhookStyles.code}>({type})</span>
              </span>
            </label>
          ))}
          {typesError ? (
            <p id="partner-event-types-error" className={webhookStyles.error}>
              {typesError}
            </p>
          ) : null}
        </fieldset>
        <Button type="submit" busy={create.isPending}>
          Crear endpoint
        </Button>
      </form>
    </>
  );
}

/**
 * Pause, resume or delete a Partner endpoint (deleting after a confirmation: it cannot be undone).
 * A failure names the action and its reason (partnerWebhookErrorMessage).
 */
export function PartnerEndpointActions(props: {
  endpointId: string;
  name: string;
  url: string;
  status: 'active' | 'paused' | 'retired';
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [failed, setFailed] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const update = useMutation(trpc.partner.updateEndpoint.mutationOptions());
  const retire = useMutation(trpc.partner.retireEndpoint.mutationOptions());
  if (props.status === 'retired') return null;
  const pausing = props.status === 'active';
  return (
    <>
      {failed === null ? null : (
        <Banner tone="danger" title="No se pudo completar">
          <p>{failed}</p>
        </Banner>
      )}
      <Button
        variant="secondary"
        size="small"
        busy={update.isPending}
        onClick={() => {
          setFailed(null);
          void update
            .mutateAsync({ endpointId: props.endpointId, status: pausing ? 'paused' : 'active' })
            .then(
              () => router.refresh(),
              (error: unknown) =>
                setFailed(
                  partnerWebhookErrorMessage(failureOf(error), pausing ? 'pause' : 'resume', props.name),
                ),
            );
        }}
      >
        {pausing ? 'Pausar' : 'Reanudar'}
        <span className="ecf-visually-hidden"> {props.name}</span>
      </Button>{' '}
      <Button variant="secondary" size="small" onClick={() => setConfirming(true)}>
        Eliminar<span className="ecf-visually-hidden"> {props.name}</span>
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`¿Eliminar el endpoint ${props.name}?`}
        confirmLabel="Eliminar endpoint"
        busy={retire.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setFailed(null);
          void retire
            .mutateAsync({ endpointId: props.endpointId })
            .then(
              () => router.refresh(),
              (error: unknown) =>
                setFailed(partnerWebhookErrorMessage(failureOf(error), 'delete', props.name)),
            )
            .finally(() => setConfirming(false));
        }}
      >
        <p>
          {props.url} no recibirá más eventos de las cuentas del Partner y no se puede deshacer. Las entregas
          en cola quedarán fallidas; el historial de entregas se conserva.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Re-queues a failed delivery; a refusal says why. */
export function PartnerReplayButton(props: { deliveryId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [failed, setFailed] = useState<string | null>(null);
  const replay = useMutation(trpc.partner.replay.mutationOptions());
  return (
    <>
      {failed === null ? null : (
        <p className={webhookStyles.error} role="alert">
          {failed}
        </p>
      )}
      <Button
        variant="secondary"
        size="small"
        busy={replay.isPending}
        onClick={() => {
          setFailed(null);
          void replay.mutateAsync({ deliveryId: props.deliveryId }).then(
            () => router.refresh(),
            (error: unknown) => setFailed(partnerWebhookErrorMessage(failureOf(error), 'replay')),
          );
        }}
      >
        Reenviar
      </Button>
    </>
  );
}
