'use client';
/**
 * The Partner account page's two links (issue 27 item 10): the embedded certification link (as the
 * Partner API's `certification-sessions`, 15 minutes) and a certificate upload session for the
 * Partner's page (as `certificate-upload-sessions`, 30 minutes, five attempts). Both are bound to
 * one of the Partner's registered origins; what they answer is shown here once, with copy buttons
 * and its expiry: nothing of it is kept in a readable form.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, CopyButton, Select } from '@ecf/ui';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import styles from './webhooks.module.css';

/** The refusals these two actions may meet, in the page's words. */
const SESSION_ERRORS: Record<string, string> = {
  INVALID_BROWSER_ORIGIN: 'Elija un origen HTTPS exacto de la lista.',
  BROWSER_ORIGIN_NOT_ALLOWED: 'Ese origen ya no está registrado: regístrelo de nuevo en Orígenes.',
  FISCAL_ACCOUNT_NOT_FOUND: 'Esta cuenta ya no pertenece al Partner.',
  NOT_FOUND: 'Esta cuenta ya no pertenece al Partner.',
  FORBIDDEN: 'Su rol no permite crear enlaces para las cuentas.',
};

type TLink = { url: string; browserOrigin: string; expiresAt: string };
type TUpload = {
  uploadUrl: string;
  uploadToken: string;
  browserOrigin: string;
  maxAttempts: number;
  expiresAt: string;
};

function Shown(props: { label: string; value: string; copyLabel: string; testId: string }) {
  return (
    <div>
      <p className={styles.legend}>{props.label}</p>
      <div className={styles.secret}>
        <code className={styles.secretValue} data-testid={props.testId}>
          {props.value}
        </code>
        <CopyButton value={props.value} label={props.copyLabel} copiedLabel="Copiado" />
      </div>
    </div>
  );
}

export function PartnerAccountSessions(props: { accountId: string; legalName: string; origins: string[] }) {
  const trpc = useTRPC();
  const [origin, setOrigin] = useState(props.origins[0] ?? '');
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<TLink | null>(null);
  const [upload, setUpload] = useState<TUpload | null>(null);
  const createLink = useMutation(trpc.partner.createCertificationLink.mutationOptions());
  const createUpload = useMutation(trpc.partner.createUploadSession.mutationOptions());

  const fail = (failure: unknown) => {
    const parsed = failureOf(failure);
    setError((parsed.appCode === null ? undefined : SESSION_ERRORS[parsed.appCode]) ?? formMessageOf(parsed));
  };
  async function openLink() {
    setError(null);
    setLink(null);
    try {
      setLink(await createLink.mutateAsync({ accountId: props.accountId, browserOrigin: origin }));
    } catch (failure) {
      fail(failure);
    }
  }
  async function openUpload() {
    setError(null);
    setUpload(null);
    try {
      setUpload(await createUpload.mutateAsync({ accountId: props.accountId, browserOrigin: origin }));
    } catch (failure) {
      fail(failure);
    }
  }

  if (props.origins.length === 0)
    return (
      <p>
        Ambos enlaces se abren desde una página del Partner: registre primero su origen HTTPS en{' '}
        <a href="/partner/origins">Orígenes</a>.
      </p>
    );
  return (
    <>
      {error === null ? null : (
        <Banner tone="danger" title="No se pudo crear">
          <p>{error}</p>
        </Banner>
      )}
      <Select
        label="Origen de la página del Partner"
        name="browserOrigin"
        value={origin}
        onChange={(event) => setOrigin(event.target.value)}
        options={props.origins.map((value) => ({ value, label: value }))}
        hint="Solo esa página podrá mostrar la certificación o subir el certificado."
      />
      <div className={styles.actions}>
        <Button variant="secondary" busy={createLink.isPending} onClick={() => void openLink()}>
          Crear enlace de certificación
        </Button>
        <Button variant="secondary" busy={createUpload.isPending} onClick={() => void openUpload()}>
          Crear sesión de carga del certificado
        </Button>
      </div>
      {link === null ? null : (
        <Banner tone="success" title="Enlace de certificación creado">
          <p>
            Póngalo en un iframe de {link.browserOrigin}: muestra la certificación de {props.legalName}, solo
            lectura. Vence el {formatDateTime(link.expiresAt)}; no se vuelve a mostrar.
          </p>
          <Shown
            label="Enlace"
            value={link.url}
            copyLabel="Copiar enlace de certificación"
            testId="certification-link"
          />
        </Banner>
      )}
      {upload === null ? null : (
        <Banner tone="success" title="Sesión de carga creada">
          <p>
            La página {upload.browserOrigin} envía el certificado (.p12) con PUT a esta dirección, con la
            cabecera <code>Authorization: Upload</code> y el token. Vence el{' '}
            {formatDateTime(upload.expiresAt)} y admite {upload.maxAttempts} intentos. El token no se vuelve a
            mostrar.
          </p>
          <Shown
            label="Dirección de carga"
            value={upload.uploadUrl}
            copyLabel="Copiar dirección de carga"
            testId="upload-url"
          />
          <Shown label="Token" value={upload.uploadToken} copyLabel="Copiar token" testId="upload-token" />
        </Banner>
      )}
    </>
  );
}
