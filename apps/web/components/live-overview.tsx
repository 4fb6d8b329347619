'use client';
/**
 * The overview's live status (issue 27, README "Live status"): polls `overview.get` (the page's own
 * procedure: index-only counts) every interval while documents are pending, in contingency or the
 * tax authority is down, backing off when nothing is; when the answer differs from what the page
 * shows, the page is rendered again in place (`router.refresh()`, no reload).
 */
import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { TEnvironment } from '../lib/environments.ts';
import { PENDING_DOCUMENT_STATUSES, stableJson } from '../lib/live-status.ts';
import { useTRPC } from '../lib/trpc/client.tsx';
import type { ZGetOverviewOutput } from '../server/routers/overview/get-overview.schema.ts';
import { LiveAnnouncement, UpdatedAgo, useLiveOptions } from './live-status.tsx';

type TOverview = z.infer<typeof ZGetOverviewOutput>;

/** Something on the overview moves by itself: pending documents, contingency, an open outage. */
function isOverviewPending(overview: TOverview): boolean {
  return (
    overview.contingency.count > 0 ||
    overview.openEpisode !== null ||
    PENDING_DOCUMENT_STATUSES.some((status) => (overview.periodCounts.byStatus[status] ?? 0) > 0)
  );
}

export function LiveOverview(props: { environment: TEnvironment; initial: TOverview; pollMs: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const live = useLiveOptions<TOverview>({ pollMs: props.pollMs, isPending: isOverviewPending });
  const query = useQuery(
    trpc.overview.get.queryOptions(
      { environment: props.environment },
      { ...live.options, initialData: props.initial },
    ),
  );
  const { markActive } = live;
  const shown = useRef(stableJson(props.initial));
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    shown.current = stableJson(props.initial);
  }, [props.initial]);
  const { data } = query;
  useEffect(() => {
    const text = stableJson(data);
    if (text === shown.current) return;
    shown.current = text;
    markActive();
    setAnnouncement(
      data.contingency.count > 0
        ? `Resumen actualizado: ${data.contingency.count} en contingencia.`
        : 'Resumen actualizado.',
    );
    router.refresh();
  }, [data, router, markActive]);
  return (
    <>
      <UpdatedAgo at={query.dataUpdatedAt} failed={query.isError} />
      <LiveAnnouncement message={announcement} />
    </>
  );
}
