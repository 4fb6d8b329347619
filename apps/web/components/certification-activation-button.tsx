'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button } from '@ecf/ui';
import { PRODUCTION_STATE_LABELS } from '../lib/certification-schemas.ts';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import styles from './certification.module.css';

/** Asks for production now (normally automatic once the tax authority lists the RNC in its directory). */
export function CertificationActivationButton(props: { stepTitles: Record<string, string> }) {
  const trpc = useTRPC();
  const router = useRouter();
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
    }
  }

  return (
    <>
      {result ? <Banner tone={result.tone}>{result.text}</Banner> : null}
      <div className={styles.actions}>
        <Button variant="secondary" busy={activation.isPending} onClick={() => void request()}>
          Solicitar activación de producción
        </Button>
      </div>
    </>
  );
}
