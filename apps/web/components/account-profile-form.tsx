'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, TextField } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import type { TAccount } from '../server/routers/account/account.schema.ts';
import styles from './account-forms.module.css';
import { useFormErrors } from './use-form-errors.ts';

const PHONE_FIELDS = [0, 1, 2] as const;

/**
 * The owner's profile form. The server checks it with the procedure's schema (phones by the issuer
 * phone rule of fiscal-core) and its messages land on their fields; nothing is saved on an error.
 */
export function AccountProfileForm(props: { account: TAccount }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [saved, setSaved] = useState(false);
  const update = useMutation(trpc.account.updateProfile.mutationOptions());
  const { account } = props;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    setSaved(false);
    try {
      await update.mutateAsync({
        legalName: text('legalName'),
        tradeName: text('tradeName'),
        address: text('address'),
        phones: PHONE_FIELDS.map((index) => text(`phones.${index}`)),
        fiscalEmail: text('fiscalEmail'),
      });
      errors.clear();
      setSaved(true);
      router.refresh();
    } catch (error) {
      errors.fail(error);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Perfil de la cuenta">
      {saved ? <Banner tone="success">Perfil guardado.</Banner> : null}
      {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
      <TextField
        label="Razón social"
        name="legalName"
        required
        defaultValue={account.legalName}
        autoComplete="organization"
        error={errors.fieldErrors['legalName']}
      />
      <TextField
        label="Nombre comercial"
        name="tradeName"
        defaultValue={account.tradeName ?? ''}
        error={errors.fieldErrors['tradeName']}
      />
      <TextField
        label="Dirección"
        name="address"
        defaultValue={account.address ?? ''}
        autoComplete="street-address"
        error={errors.fieldErrors['address']}
      />
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Teléfonos (hasta 3)</legend>
        <p className={styles.hint}>Formato 809-555-0101. Se usan en los documentos que no envían teléfono.</p>
        <div className={styles.phones}>
          {PHONE_FIELDS.map((index) => (
            <TextField
              key={index}
              label={`Teléfono ${index + 1}`}
              name={`phones.${index}`}
              type="tel"
              inputMode="tel"
              defaultValue={account.phones[index] ?? ''}
              error={errors.fieldErrors[`phones.${index}`]}
            />
          ))}
        </div>
        {errors.fieldErrors['phones'] ? <p className={styles.error}>{errors.fieldErrors['phones']}</p> : null}
      </fieldset>
      <TextField
        label="Correo electrónico fiscal"
        name="fiscalEmail"
        type="email"
        defaultValue={account.fiscalEmail ?? ''}
        autoComplete="email"
        error={errors.fieldErrors['fiscalEmail']}
      />
      <Button type="submit" busy={update.isPending}>
        Guardar perfil
      </Button>
    </form>
  );
}
