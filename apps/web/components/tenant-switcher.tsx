'use client';
/**
 * The account (tenant) the session works in: the user's memberships, or every tenant for support.
 * A form with a button (changing a select never navigates by itself: WCAG 3.2.2). Switching is the
 * `session.switchTenant` procedure; the page then reloads in the new tenant.
 */
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import styles from './portal-shell.module.css';

export type TTenantOption = { id: string; label: string };

export function TenantSwitcher(props: { tenants: readonly TTenantOption[]; activeTenantId: string | null }) {
  const trpc = useTRPC();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const switchTenant = useMutation(trpc.session.switchTenant.mutationOptions());
  if (props.tenants.length === 0) return null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('tenantId');
    const tenantId = typeof value === 'string' ? value : '';
    switchTenant.mutateAsync({ tenantId }).then(
      () => window.location.assign('/'),
      (failure: unknown) => setError(formMessageOf(failureOf(failure))),
    );
  }

  return (
    <form className={styles.switcher} onSubmit={submit} aria-label="Cambiar de cuenta">
      <div>
        <label htmlFor={id} className={styles.switcherLabel}>
          Cuenta
        </label>
        <select
          id={id}
          name="tenantId"
          className={styles.switcherSelect}
          defaultValue={props.activeTenantId ?? ''}
        >
          {props.activeTenantId === null ? (
            <option value="" disabled>
              Elija una cuenta
            </option>
          ) : null}
          {props.tenants.map((tenant) => (
            <option key={tenant.id} value={tenant.id}>
              {tenant.label}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary" size="small" busy={switchTenant.isPending}>
        Cambiar
      </Button>
      {error ? <span role="alert">{error}</span> : null}
    </form>
  );
}
