'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { Banner, Button, ConfirmDialog, TextField } from '@ecf/ui';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import {
  CERTIFICATE_FILE_MAX_BYTES,
  ZUploadCertificateInput,
} from '../server/routers/certificate/upload-certificate.schema.ts';
import styles from './certificate.module.css';
import { useFormErrors } from './use-form-errors.ts';

/** What the replacement dialog compares: the active certificate and the file's. */
type TCertificateFacts = { subject: string; serialNumber: string; validFrom: string; validTo: string };

/** Where each refusal of the upload is shown: the password's on the password, the rest on the file. */
const FIELD_OF_CODE: Record<string, string> = {
  CERTIFICATE_PASSWORD_INVALID: 'password',
  CERTIFICATE_FILE_INVALID: 'p12Base64',
  CERTIFICATE_PRIVATE_KEY_MISSING: 'p12Base64',
  CERTIFICATE_KEY_PAIR_NOT_FOUND: 'p12Base64',
  CERTIFICATE_HOLDER_ID_MISSING: 'p12Base64',
  CERTIFICATE_KEY_USAGE_INVALID: 'p12Base64',
  CERTIFICATE_EXPIRED: 'p12Base64',
  CERTIFICATE_NOT_YET_VALID: 'p12Base64',
};

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

/** The active certificate and the new one side by side: subject, serial and validity of each. */
function CertificateComparison(props: { current: TCertificateFacts; next: TCertificateFacts }) {
  const rows: Array<[string, (facts: TCertificateFacts) => string, boolean]> = [
    ['Titular', (facts) => facts.subject, false],
    ['Número de serie', (facts) => facts.serialNumber, true],
    ['Válido desde', (facts) => formatDateTime(facts.validFrom), false],
    ['Válido hasta', (facts) => formatDateTime(facts.validTo), false],
  ];
  return (
    <table className={styles.comparison} data-testid="certificate-comparison">
      <caption className="ecf-visually-hidden">Certificado actual y certificado nuevo</caption>
      <thead>
        <tr>
          <td />
          <th scope="col">Actual</th>
          <th scope="col">Nuevo</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, value, code]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td className={code ? styles.code : undefined}>{value(props.current)}</td>
            <td className={code ? styles.code : undefined}>{value(props.next)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The owner uploads a PKCS#12 (.p12/.pfx) and its password. The file travels as base64 in the
 * JSON mutation; the server checks it (the admin CLI's checks) and stores it encrypted. Each
 * refusal is shown on its field. The password field is cleared after every attempt.
 *
 * Replacing an active certificate changes what every e-CF is signed with from then on, so it is
 * confirmed first: the server reads the file (`certificate.preview`: the same checks, nothing
 * stored) and the dialog shows the subject, serial and validity of both certificates. Cancelling
 * drops the file's bytes and password from memory and leaves the active certificate as it was.
 */
export function CertificateUploadForm(props: { active: TCertificateFacts | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [installed, setInstalled] = useState<string | null>(null);
  const [replacing, setReplacing] = useState<{
    input: z.infer<typeof ZUploadCertificateInput>;
    next: TCertificateFacts;
    form: HTMLFormElement;
  } | null>(null);
  const preview = useMutation(trpc.certificate.preview.mutationOptions());
  const upload = useMutation(trpc.certificate.upload.mutationOptions());

  async function install(input: z.infer<typeof ZUploadCertificateInput>, formElement: HTMLFormElement) {
    try {
      const certificate = await upload.mutateAsync(input);
      setInstalled(certificate.subject);
      formElement.reset();
      router.refresh();
    } catch (error) {
      errors.fail(error, FIELD_OF_CODE);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A second submit while the file is being read is ignored (the button is not disabled for the
    // preview: a disabled button loses the focus, which the dialog must give back to it).
    if (preview.isPending) return;
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setInstalled(null);
    const file = form.get('file');
    if (file instanceof File && file.size > CERTIFICATE_FILE_MAX_BYTES) {
      errors.show({ p12Base64: 'El archivo pasa de 64 KiB: no es un certificado PKCS#12 de firma.' });
      return;
    }
    const p12Base64 =
      file instanceof File && file.size > 0 ? base64Of(new Uint8Array(await file.arrayBuffer())) : '';
    const input = errors.check(ZUploadCertificateInput, { p12Base64, password: form.get('password') });
    const passwordField = formElement.elements.namedItem('password');
    if (input === null) return;
    try {
      if (props.active === null) {
        await install(input, formElement);
        return;
      }
      try {
        setReplacing({ input, next: await preview.mutateAsync(input), form: formElement });
      } catch (error) {
        errors.fail(error, FIELD_OF_CODE);
      }
    } finally {
      if (passwordField instanceof HTMLInputElement) passwordField.value = '';
    }
  }

  return (
    <>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Subir un certificado">
        {installed ? (
          <Banner tone="success" title="Certificado instalado">
            {installed} es ahora el certificado de firma de la cuenta; el anterior quedó inactivo.
          </Banner>
        ) : null}
        {errors.message ? <Banner tone="danger">{errors.message}</Banner> : null}
        <TextField
          label="Archivo del certificado (.p12 o .pfx)"
          name="file"
          type="file"
          accept=".p12,.pfx,application/x-pkcs12"
          required
          hint="Hasta 64 KiB. Se guarda cifrado; nadie puede descargarlo."
          error={errors.fieldErrors['p12Base64']}
        />
        <TextField
          label="Contraseña del certificado"
          name="password"
          type="password"
          autoComplete="off"
          required
          error={errors.fieldErrors['password']}
        />
        <Button type="submit" busy={upload.isPending}>
          Subir certificado
        </Button>
      </form>
      {props.active === null ? null : (
        <ConfirmDialog
          open={replacing !== null}
          wide
          title="¿Reemplazar el certificado de firma?"
          confirmLabel="Reemplazar certificado"
          busy={upload.isPending}
          onCancel={() => setReplacing(null)}
          onConfirm={() => {
            if (replacing === null) return;
            void install(replacing.input, replacing.form).finally(() => setReplacing(null));
          }}
        >
          <p>
            Desde que confirme, todos los e-CF de la cuenta se firman con el certificado nuevo. El actual
            queda inactivo (se conserva en el historial) y no se puede volver a activar sin subirlo otra vez.
          </p>
          {replacing === null ? null : (
            <>
              {replacing.next.serialNumber === props.active.serialNumber ? (
                <p>
                  <strong>Es el mismo certificado que el activo</strong> (mismo número de serie).
                </p>
              ) : null}
              <CertificateComparison current={props.active} next={replacing.next} />
            </>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
