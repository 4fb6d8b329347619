'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, CopyButton, TextField } from '@ecf/ui';
import type { TEnvironment } from '../lib/environments.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { SCOPE_LABELS } from '../server/routers/api-keys/api-key.schema.ts';
import { ZCreateApiKeyInput } from '../server/routers/api-keys/create-api-key.schema.ts';
import styles from './api-key-create-form.module.css';
import { useFormErrors } from './use-form-errors.ts';

type TScope = keyof typeof SCOPE_LABELS;

/**
 * Creates a key in this environment with scopes among those the member's role may grant (the
 * procedure refuses any other). The clear key is shown here once, with a copy button: it is never
 * retrievable again (only its hash is stored).
 */
export function ApiKeyCreateForm(props: { environment: TEnvironment; grantableScopes: TScope[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const create = useMutation(trpc.apiKeys.create.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setCreated(null);
    const input = errors.check(ZCreateApiKeyInput, {
      environment: props.environment,
      name: form.get('name'),
      scopes: form.getAll('scopes'),
    });
    if (input === null) return;
    try {
      const answer = await create.mutateAsync(input);
      setCreated({ key: answer.key, name: answer.apiKey.name });
      formElement.reset();
      router.refresh();
    } catch (error) {
      const failure = errors.fail(error);
      if (failure.details?.['reason'] === 'scope_not_grantable')
        errors.show({ scopes: 'Su rol no puede otorgar alguno de los alcances elegidos.' });
    }
  }

  const scopeError = errors.fieldErrors['scopes'] ?? errors.fieldErrors['scopes.0'];
  return (
    <>
      {created ? (
        <Banner tone="success" title={`Clave «${created.name}» creada`}>
          <p>Cópiela ahora y guárdela en un lugar seguro: no se volverá a mostrar.</p>
          <div className={styles.secret}>
            <code className={styles.key} data-testid="new-api-key">
              {created.key}
            </code>
            <CopyButton value={created.key} label="Copiar clave" copiedLabel="Clave copiada" />
          </div>
        </Banner>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Crear una clave API">
        {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
        <TextField
          label="Nombre"
          name="name"
          maxLength={100}
          autoComplete="off"
          required
          hint="Para reconocerla después, por ejemplo «ERP producción»."
          error={errors.fieldErrors['name']}
        />
        <fieldset
          className={styles.scopes}
          aria-describedby={scopeError ? 'api-key-scopes-error' : undefined}
        >
          <legend className={styles.legend}>Alcances</legend>
          {props.grantableScopes.map((scope) => (
            <label key={scope} className={styles.scope}>
              <input type="checkbox" name="scopes" value={scope} defaultChecked={scope !== 'tenant:admin'} />
              <span>
                {SCOPE_LABELS[scope]} <span className={styles.scopeCode}>({scope})</span>
              </span>
            </label>
          ))}
          {scopeError ? (
            <p id="api-key-scopes-error" className={styles.error}>
              {scopeError}
            </p>
          ) : null}
        </fieldset>
        <Button type="submit" busy={create.isPending}>
          Crear clave
        </Button>
      </form>
    </>
  );
}
