'use client';
import { type DIRECT_WEBHOOK_EVENT_TYPES } from '@ecf/contract';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Banner, Button, CopyButton, TextField } from '@ecf/ui';
import type { TEnvironment } from '../lib/environments.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { ZCreateWebhookEndpointInput } from '../server/routers/webhooks/create-webhook-endpoint.schema.ts';
import {
  WEBHOOK_EVENT_TYPE_LABELS,
  WEBHOOK_URL_MESSAGES,
} from '../server/routers/webhooks/webhook.schema.ts';
import { useFormErrors } from './use-form-errors.ts';
import styles from './webhooks.module.css';

type TEventType = (typeof DIRECT_WEBHOOK_EVENT_TYPES)[number];

/** The field messages of a services field error (`details.issues`), in the portal's words. */
export function webhookIssueMessages(details: Record<string, unknown> | null): Record<string, string> {
  const issues = Array.isArray(details?.['issues']) ? (details['issues'] as unknown[]) : [];
  const messages: Record<string, string> = {};
  for (const issue of issues) {
    const { path, code } = issue as { path?: unknown; code?: unknown };
    if (typeof path !== 'string') continue;
    messages[path] =
      WEBHOOK_URL_MESSAGES[code as keyof typeof WEBHOOK_URL_MESSAGES] ??
      (path === 'eventTypes' ? 'Elija al menos un tipo de evento.' : 'Revise este campo.');
  }
  return messages;
}

/**
 * Creates an endpoint in this environment. The URL is checked as it is typed, by the server's own
 * rules (the answer shows on the field), and again when saving. The signing secret is shown here
 * once, with a copy button: it is stored sealed and never shown again.
 */
export function WebhookCreateForm(props: { environment: TEnvironment; eventTypes: TEventType[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [created, setCreated] = useState<{ secret: string; name: string } | null>(null);
  const [url, setUrl] = useState('');
  const [typed, setTyped] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setTyped(url.trim()), 400);
    return () => clearTimeout(timer);
  }, [url]);
  const check = useQuery({
    ...trpc.webhooks.checkUrl.queryOptions({ url: typed }),
    enabled: typed !== '',
    staleTime: 30_000,
  });
  const create = useMutation(trpc.webhooks.create.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setCreated(null);
    const input = errors.check(ZCreateWebhookEndpointInput, {
      environment: props.environment,
      name: form.get('name'),
      url: form.get('url'),
      eventTypes: form.getAll('eventTypes'),
    });
    if (input === null) return;
    try {
      const answer = await create.mutateAsync(input);
      setCreated({ secret: answer.signingSecret, name: answer.endpoint.name });
      formElement.reset();
      setUrl('');
      router.refresh();
    } catch (error) {
      const failure = errors.fail(error);
      const fields = webhookIssueMessages(failure.details);
      if (Object.keys(fields).length > 0) errors.show(fields);
    }
  }

  const current = url.trim();
  const answered = check.data !== undefined && typed === current && current !== '';
  const urlError =
    errors.fieldErrors['url'] ??
    (answered && check.data?.ok === false ? (check.data.message ?? undefined) : undefined);
  const typesError = errors.fieldErrors['eventTypes'] ?? errors.fieldErrors['eventTypes.0'];
  return (
    <>
      {created ? (
        <Banner tone="success" title={`Endpoint «${created.name}» creado`}>
          <p>
            Este es su secreto de firma. Cópielo ahora y guárdelo en su receptor: no se volverá a mostrar.
          </p>
          <div className={styles.secret}>
            <code className={styles.secretValue} data-testid="new-webhook-secret">
              {created.secret}
            </code>
            <CopyButton value={created.secret} label="Copiar secreto" copiedLabel="Secreto copiado" />
          </div>
        </Banner>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Crear un endpoint">
        {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
        <TextField
          label="Nombre"
          name="name"
          maxLength={200}
          autoComplete="off"
          required
          hint="Para reconocerlo después, por ejemplo «ERP producción»."
          error={errors.fieldErrors['name']}
        />
        <TextField
          label="URL"
          name="url"
          type="url"
          inputMode="url"
          maxLength={2048}
          autoComplete="off"
          required
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          hint="HTTPS, pública, sin usuario ni contraseña. Se revisa mientras escribe."
          error={urlError}
        />
        <p className={styles.ok} aria-live="polite" data-testid="webhook-url-check">
          {answered && check.data?.ok === true && errors.fieldErrors['url'] === undefined
            ? 'URL permitida.'
            : ''}
        </p>
        <fieldset
          className={styles.types}
          aria-describedby={typesError ? 'webhook-event-types-error' : undefined}
        >
          <legend className={styles.legend}>Eventos</legend>
          {props.eventTypes.map((type) => (
            <label key={type} className={styles.type}>
              <input type="checkbox" name="eventTypes" value={type} defaultChecked />
              <span>
                {WEBHOOK_EVENT_TYPE_LABELS[type]} <span className={styles.code}>({type})</span>
              </span>
            </label>
          ))}
          {typesError ? (
            <p id="webhook-event-types-error" className={styles.error}>
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
