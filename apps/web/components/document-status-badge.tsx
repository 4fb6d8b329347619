import { StatusBadge } from '@ecf/ui';
import { DOCUMENT_STATUS_LABELS, DOCUMENT_STATUS_TONES } from './document-labels.ts';

/** A document's status as a badge: the Spanish label says it (the colour only decorates). */
export function DocumentStatusBadge(props: { status: string }) {
  return (
    <StatusBadge tone={DOCUMENT_STATUS_TONES[props.status] ?? 'neutral'}>
      {DOCUMENT_STATUS_LABELS[props.status] ?? props.status}
    </StatusBadge>
  );
}
