'use client';
/**
 * The support desk's live status (issue 27, README "Live status"): polls the desk's contingency list
 * and outage episodes (one batched request) every interval while a document is in contingency or an
 * outage is open, backing off when neither; when either changed (a document entered or left
 * contingency, was tried again, an outage opened or closed), the desk is rendered again in place
 * (`router.refresh()`). Support's views are audited by the procedures, and a refresh that reads the
 * same data within 5 minutes is not audited again (`recordSupportView`'s repeat window).
 */
import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../lib/trpc/client.tsx';
import { LiveAnnouncement, UpdatedAgo, useLiveOptions } from './live-status.tsx';

type TContingency = { items: { documentId: string; attempts: number; nextAttemptAt: string | null }[] };
type TEpisodes = { episodes: { id: string; open: boolean }[] };

const fingerprintOf = (contingency: TContingency, episodes: TEpisodes) =>
  JSON.stringify([
    contingency.items.map((item) => [item.documentId, item.attempts, item.nextAttemptAt]),
    episodes.episodes.map((episode) => [episode.id, episode.open]),
  ]);

export function LiveSupportDesk(props: { pollMs: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  // The episodes' poll follows the contingency list's pace: both are one batched request.
  const [busy, setBusy] = useState(true);
  const live = useLiveOptions<unknown>({ pollMs: props.pollMs, isPending: () => busy });
  const contingency = useQuery(trpc.support.contingency.queryOptions({}, live.options));
  const episodes = useQuery(trpc.support.episodes.queryOptions(undefined, live.options));
  const { markActive } = live;
  const seen = useRef<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (contingency.data === undefined || episodes.data === undefined) return;
    setBusy(contingency.data.items.length > 0 || episodes.data.episodes.some((episode) => episode.open));
    const fingerprint = fingerprintOf(contingency.data, episodes.data);
    const before = seen.current;
    seen.current = fingerprint;
    if (before === null || before === fingerprint) return;
    markActive();
    const count = contingency.data.items.length;
    setAnnouncement(
      `Mesa actualizada: ${count === 1 ? '1 documento' : `${count} documentos`} en contingencia.`,
    );
    router.refresh();
  }, [contingency.data, episodes.data, router, markActive]);
  const at = Math.min(contingency.dataUpdatedAt, episodes.dataUpdatedAt);
  return (
    <>
      {at > 0 ? <UpdatedAgo at={at} failed={contingency.isError || episodes.isError} /> : null}
      <LiveAnnouncement message={announcement} />
    </>
  );
}
