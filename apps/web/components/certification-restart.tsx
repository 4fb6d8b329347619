'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Banner, Button, ConfirmDialog } from '@ecf/ui';
import { PART_LABELS, type TCertificationPart } from '../lib/certification-schemas.ts';
import { failureOf, formMessageOf } from '../lib/trpc-errors.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import styles from './certification.module.css';

const CONSEQUENCES: Record<TCertificationPart, string> = {
  data: 'La corrida de datos en curso se detiene, sus comprobantes quedan reemplazados (se conservan) y se deshacen los pasos 2 y 3 (pruebas de datos y aprobaciones comerciales). Después necesitará un set nuevo de la DGII: los e-NCF enviados quedan usados.',
  simulation:
    'La corrida de simulación en curso se detiene, sus comprobantes quedan reemplazados (se conservan) y se deshacen los pasos 4 a 6 (simulación y representación impresa).',
};

/**
 * Restarts a part of the tests, after a confirmation that says what it undoes. A part with nothing
 * to restart has its button disabled, with `unavailable[part]` (why) next to it.
 */
export function CertificationRestart(props: { unavailable: Record<TCertificationPart, string | null> }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [part, setPart] = useState<TCertificationPart | null>(null);
  const [result, setResult] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const restart = useMutation(trpc.certification.restart.mutationOptions());

  async function confirm() {
    if (part === null) return;
    const chosen = part;
    setPart(null);
    try {
      const answer = await restart.mutateAsync({ environment: 'CerteCF', part: chosen });
      setResult({
        tone: 'success',
        text: `${PART_LABELS[chosen]}: se reinició la parte. ${answer.replacedDocuments} comprobante(s) reemplazado(s).`,
      });
      router.refresh();
    } catch (error) {
      setResult({ tone: 'danger', text: formMessageOf(failureOf(error)) });
    }
  }

  return (
    <>
      {result ? <Banner tone={result.tone}>{result.text}</Banner> : null}
      <div className={styles.actions}>
        <Button
          variant="danger"
          busy={restart.isPending}
          disabledReason={props.unavailable.data}
          onClick={() => setPart('data')}
        >
          Reiniciar pruebas de datos
        </Button>
        <Button
          variant="danger"
          busy={restart.isPending}
          disabledReason={props.unavailable.simulation}
          onClick={() => setPart('simulation')}
        >
          Reiniciar simulación
        </Button>
      </div>
      <ConfirmDialog
        open={part !== null}
        title={`¿Reiniciar ${part === null ? '' : (PART_LABELS[part] ?? part).toLowerCase()}?`}
        confirmLabel="Reiniciar"
        onConfirm={() => void confirm()}
        onCancel={() => setPart(null)}
      >
        <p>{part === null ? null : CONSEQUENCES[part]}</p>
      </ConfirmDialog>
    </>
  );
}
