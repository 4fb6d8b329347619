'use client';
/**
 * Live status of issued documents (issue 27): the documents list's pending rows and the document
 * page refresh their status without a reload, through `live.documents` (README "Live status").
 *
 * - {@link LiveDocumentList} wraps the list's table: it watches the rows of the page that are still
 *   pending (queued, signed, sent, in contingency), drops each one once final, and stops polling when
 *   none is left; {@link LiveDocumentStatusCell} is the Estado cell that reads it.
 * - {@link LiveDocumentState} is the document page's Estado: it polls while the document is pending
 *   and re-renders the page (`router.refresh()`, no reload) when the document changed, so the
 *   timeline and the tax authority's messages follow.
 */
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useRouter } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import type { TEnvironment } from '../lib/environments.ts';
import { isPendingDocumentStatus } from '../lib/live-status.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { DOCUMENT_STATUS_LABELS, DOCUMENT_STATUS_TONES } from './document-labels.ts';
import { DocumentStatusBadge } from './document-status-badge.tsx';
import {
  LiveAnnouncement,
  NextAttemptBadge,
  NextAttemptCountdown,
  UpdatedAgo,
  useLiveOptions,
} from './live-status.tsx';

type TLiveState = { status: string; nextAttemptAt: string | null };

const LiveDocumentsContext = createContext<ReadonlyMap<string, TLiveState>>(new Map());

const statusLabel = (status: string) => DOCUMENT_STATUS_LABELS[status] ?? 'Estado desconocido';

/**
 * The documents list's live rows: `documents` are the page's rows (id, e-NCF, status as rendered);
 * the pending ones are polled every `pollMs` (the same request for all of them), the others never.
 */
export function LiveDocumentList(props: {
  environment: TEnvironment;
  documents: { documentId: string; encf: string; status: string }[];
  pollMs: number;
  children: ReactNode;
}) {
  const trpc = useTRPC();
  const [states, setStates] = useState<ReadonlyMap<string, TLiveState>>(
    () =>
      new Map(props.documents.map((row) => [row.documentId, { status: row.status, nextAttemptAt: null }])),
  );
  const [announcement, setAnnouncement] = useState('');
  const watched = useMemo(
    () =>
      props.documents
        .filter((row) => isPendingDocumentStatus(states.get(row.documentId)?.status ?? row.status))
        .map((row) => row.documentId),
    [props.documents, states],
  );
  const live = useLiveOptions<unknown>({ pollMs: props.pollMs, isPending: () => true });
  const query = useQuery(
    trpc.live.documents.queryOptions(
      { environment: props.environment, documentIds: watched },
      { ...live.options, enabled: watched.length > 0, placeholderData: (previous) => previous },
    ),
  );
  const { data } = query;
  const statesRef = useRef(states);
  statesRef.current = states;
  useEffect(() => {
    if (data === undefined) return;
    const current = statesRef.current;
    const next = new Map(current);
    const changed: string[] = [];
    for (const item of data.items) {
      const before = current.get(item.documentId);
      if (before !== undefined && before.status !== item.status) {
        const encf = props.documents.find((row) => row.documentId === item.documentId)?.encf ?? '';
        changed.push(`${encf}: ${statusLabel(item.status)}`);
      }
      next.set(item.documentId, { status: item.status, nextAttemptAt: item.nextAttemptAt });
    }
    setStates(next);
    if (changed.length > 0) setAnnouncement(`Estado actualizado. ${changed.join('. ')}.`);
  }, [data, props.documents]);
  const polled = query.dataUpdatedAt > 0;
  return (
    <LiveDocumentsContext.Provider value={states}>
      {polled ? <UpdatedAgo at={query.dataUpdatedAt} failed={query.isError} /> : null}
      {polled && watched.length === 0 ? (
        <p className="ecf-visually-hidden">Ningún documento de esta página sigue pendiente.</p>
      ) : null}
      <LiveAnnouncement message={announcement} />
      {props.children}
    </LiveDocumentsContext.Provider>
  );
}

/** The Estado cell of a documents list row: the live status, and the countdown to a retry in contingency. */
export function LiveDocumentStatusCell(props: { documentId: string; status: string }) {
  const states = useContext(LiveDocumentsContext);
  const state = states.get(props.documentId) ?? { status: props.status, nextAttemptAt: null };
  return (
    <span data-testid="live-document-status" data-document-id={props.documentId} data-status={state.status}>
      {state.status === 'contingency' && state.nextAttemptAt !== null ? (
        <NextAttemptBadge
          at={state.nextAttemptAt}
          label={statusLabel(state.status)}
          tone={DOCUMENT_STATUS_TONES[state.status] ?? 'warning'}
        />
      ) : (
        <DocumentStatusBadge status={state.status} />
      )}
    </span>
  );
}

/**
 * The document page's Estado: the live status with the countdown to a retry in contingency and how
 * fresh it is; when the document changed (its `updatedAt`), the page is rendered again in place.
 */
export function LiveDocumentState(props: {
  environment: TEnvironment;
  documentId: string;
  status: string;
  updatedAt: string;
  pollMs: number;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const live = useLiveOptions<{ items: { status: string }[] }>({
    pollMs: props.pollMs,
    isPending: (answer) => answer.items.some((item) => isPendingDocumentStatus(item.status)),
    stopWhenIdle: true,
  });
  const query = useQuery(
    trpc.live.documents.queryOptions(
      { environment: props.environment, documentIds: [props.documentId] },
      { ...live.options, enabled: isPendingDocumentStatus(props.status) },
    ),
  );
  const { markActive } = live;
  const item = query.data?.items[0];
  const shownAt = useRef(props.updatedAt);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    shownAt.current = props.updatedAt;
  }, [props.updatedAt]);
  useEffect(() => {
    if (item === undefined || item.updatedAt === shownAt.current) return;
    shownAt.current = item.updatedAt;
    markActive();
    if (item.status !== props.status) setAnnouncement(`Estado actualizado: ${statusLabel(item.status)}.`);
    router.refresh();
  }, [item, props.status, router, markActive]);
  const status = item?.status ?? props.status;
  return (
    <div data-testid="live-document-status" data-document-id={props.documentId} data-status={status}>
      <DocumentStatusBadge status={status} />
      {status === 'contingency' && item?.nextAttemptAt ? (
        <NextAttemptCountdown at={item.nextAttemptAt} />
      ) : null}
      {query.dataUpdatedAt > 0 ? <UpdatedAgo at={query.dataUpdatedAt} failed={query.isError} /> : null}
      <LiveAnnouncement message={announcement} />
    </div>
  );
}
