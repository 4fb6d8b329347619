'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, TextField } from '@ecf/ui';
import { useTRPC } from '../lib/trpc/client.tsx';
import {
  CERTIFICATE_FILE_MAX_BYTES,
  ZUploadCertificateInput,
} from '../server/routers/certificate/upload-certificate.schema.ts';
import { useFormErrors } from './use-form-errors.ts';

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

/**
 * The owner uploads a PKCS#12 (.p12/.pfx) and its password. The file travels as base64 in the
 * JSON mutation; the server checks it (the admin CLI's checks) and stores it encrypted. Each
 * refusal is shown on its field. The password field is cleared after every attempt.
 */
export function CertificateUploadForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const errors = useFormErrors();
  const [installed, setInstalled] = useState<string | null>(null);
  const upload = useMutation(trpc.certificate.upload.mutationOptions());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
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
      const certificate = await upload.mutateAsync(input);
      setInstalled(certificate.subject);
      formElement.reset();
      router.refresh();
    } catch (error) {
      errors.fail(error, FIELD_OF_CODE);
    } finally {
      if (passwordField instanceof HTMLInputElement) passwordField.value = '';
    }
  }

  return (
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
  );
}
