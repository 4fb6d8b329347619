'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, TextField } from '@ecf/ui';
import { ENVIRONMENT_LABELS, ENVIRONMENTS } from '../lib/environments.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import type { TAccount } from '../server/routers/account/account.schema.ts';
import styles from './account-forms.module.css';
import { useFormErrors } from './use-form-errors.ts';

/** The owner's settings: buyer e-mail per environment, payment term, deferred-send authorization. */
export function AccountSettingsForm(props: { account: TAccount }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [saved, setSaved] = useState(false);
  const update = useMutation(trpc.account.updateSettings.mutationOptions());
  const { account } = props;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const termValue = form.get('paymentTermDays');
    const term = typeof termValue === 'string' ? termValue.trim() : '';
    setSaved(false);
    if (term !== '' && !/^-?\d+$/.test(term)) {
      errors.show({ paymentTermDays: 'Escriba un número entero de días.' });
      return;
    }
    try {
      await update.mutateAsync({
        buyerEmailEnvironments: ENVIRONMENTS.filter((environment) =>
          form.getAll('buyerEmailEnvironments').includes(environment),
        ),
        paymentTermDays: term === '' ? null : Number(term),
        deferredSendAuthorized: form.get('deferredSendAuthorized') === 'on',
      });
      errors.clear();
      setSaved(true);
      router.refresh();
    } catch (error) {
      errors.fail(error);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Configuración de la cuenta">
      {saved ? <Banner tone="success">Configuración guardada.</Banner> : null}
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Correo al comprador</legend>
        <p className={styles.hint}>
          En los ambientes marcados, cada e-CF aceptado con correo del comprador se le envía con el enlace a
          su representación impresa.
        </p>
        {ENVIRONMENTS.map((environment) => (
          <label key={environment} className={styles.check}>
            <input
              type="checkbox"
              name="buyerEmailEnvironments"
              value={environment}
              defaultChecked={account.buyerEmailEnvironments.includes(environment)}
            />
            {ENVIRONMENT_LABELS[environment]}
          </label>
        ))}
        {errors.fieldErrors['buyerEmailEnvironments'] ? (
          <p className={styles.error}>{errors.fieldErrors['buyerEmailEnvironments']}</p>
        ) : null}
      </fieldset>
      <TextField
        label="Plazo de pago (días)"
        name="paymentTermDays"
        inputMode="numeric"
        hint="De 0 a 365. La fecha límite de pago de cada e-CF será su fecha de emisión más estos días. Déjelo vacío si no da plazo."
        defaultValue={account.paymentTermDays === null ? '' : String(account.paymentTermDays)}
        error={errors.fieldErrors['paymentTermDays']}
      />
      <label className={styles.check}>
        <input
          type="checkbox"
          name="deferredSendAuthorized"
          defaultChecked={account.deferredSendAuthorized}
        />
        Autorizada para envío diferido (IndicadorEnvioDiferido por defecto)
      </label>
      {errors.fieldErrors['deferredSendAuthorized'] ? (
        <p className={styles.error}>{errors.fieldErrors['deferredSendAuthorized']}</p>
      ) : null}
      <Button type="submit" busy={update.isPending}>
        Guardar configuración
      </Button>
    </form>
  );
}
