'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, ConfirmDialog } from '@ecf/ui';
import { PRODUCTION_STATE_LABELS } from '../lib/certification-schemas.ts';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import styles from './certification.module.css';

/**
 * Asks for production now (normally automatic once the tax authority lists the RNC in its
 * directory), after a confirmation. Before the sworn declaration (step 13) the button is disabled
 * with `unavailableReason` next to it: the service would only refuse.
 */
export function CertificationActivationButton(props: {
  stepTitles: Record<string, string>;
  unavailableReason: string | null;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const activation = useMutation(trpc.certification.requestActivation.mutationOptions());

  async function request() {
    setResult(null);
    try {
      const answer = await activation.mutateAsync({ environment: 'CerteCF' });
      setResult({
        tone: 'success',
        text: answer.checking
          ? `Producción: ${PRODUCTION_STATE_LABELS[answer.productionState] ?? answer.productionState}. El servicio consulta ahora el directorio de la DGII; se activa cuando la DGII lista su RNC.`
          : `Producción: ${PRODUCTION_STATE_LABELS[answer.productionState] ?? answer.productionState}.`,
      });
      router.refresh();
    } catch (error) {
      const failure = failureOf(error);
      const missing = failure.details?.['missingSteps'];
      const names = Array.isArray(missing)
        ? missing.map((step) => props.stepTitles[String(step)] ?? String(step))
        : [];
      setResult({
        tone: 'danger',
        text:
          names.length > 0
            ? `${formMessageOf(failure)} Faltan: ${names.join(', ')}.`
            : formMessageOf(failure),
      });
    } finally {
      setOpen(false);
    }
  }

  return (
    <>
      {result ? <Banner tone={result.tone}>{result.text}</Banner> : null}
      <div className={styles.actions}>
        <Button
          variant="secondary"
          busy={activation.isPending}
          disabledReason={props.unavailableReason}
          onClick={() => setOpen(true)}
        >
          Solicitar activación de producción
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        title="¿Solicitar la activación de producción?"
        confirmLabel="Solicitar activación"
        tone="primary"
        busy={activation.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => void request()}
      >
        <p>
          La producción queda pendiente y el servicio consulta ahora el directorio de producción de la DGII.
          Cuando la DGII liste su RNC, la producción se activa: desde entonces los e-CF enviados a eCF tienen
          efecto fiscal.
        </p>
      </ConfirmDialog>
    </>
  );
}
