'use client';
/**
 * Webhook deliveries' live status (issue 27, README "Live status"): on the first page of an
 * endpoint's deliveries, polls the page's own `webhooks.deliveries` every interval while a delivery
 * is queued or running and backs off when none is (a new event can still arrive); a new delivery or
 * a change of one (an attempt, its outcome) renders the page again in place (`router.refresh()`).
 * Older pages (a cursor) do not change by themselves and are not polled.
 */
import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import type { TEnvironment } from '../lib/environments.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import { LiveAnnouncement, UpdatedAgo, useLiveOptions } from './live-status.tsx';

type TDeliveries = { items: { id: string; status: string; attempts: number }[] };

const isMoving = (deliveries: TDeliveries) =>
  deliveries.items.some((delivery) => delivery.status === 'queued' || delivery.status === 'running');

export function LiveWebhookDeliveries(props: {
  environment: TEnvironment;
  endpointId: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | null;
  pollMs: number;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const live = useLiveOptions<TDeliveries>({ pollMs: props.pollMs, isPending: isMoving });
  const query = useQuery(
    trpc.webhooks.deliveries.queryOptions(
      { environment: props.environment, endpointId: props.endpointId, status: props.status, cursor: null },
      live.options,
    ),
  );
  const { markActive } = live;
  const seen = useRef<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const { data } = query;
  useEffect(() => {
    if (data === undefined) return;
    const fingerprint = JSON.stringify(data.items.map((item) => [item.id, item.status, item.attempts]));
    const before = seen.current;
    seen.current = fingerprint;
    if (before === null || before === fingerprint) return;
    markActive();
    const known = new Set((JSON.parse(before) as [string][]).map(([id]) => id));
    const added = data.items.filter((item) => !known.has(item.id)).length;
    setAnnouncement(
      added > 0
        ? `${added === 1 ? 'Una entrega nueva' : `${added} entregas nuevas`}.`
        : 'Entregas actualizadas.',
    );
    router.refresh();
  }, [data, router, markActive]);
  return (
    <>
      {query.dataUpdatedAt > 0 ? <UpdatedAgo at={query.dataUpdatedAt} failed={query.isError} /> : null}
      <LiveAnnouncement message={announcement} />
    </>
  );
}
