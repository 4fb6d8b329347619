'use client';
/**
 * Live status (issue 27, README "Live status"): what every live page shares. Pages poll a tRPC
 * query (TanStack Query's `refetchInterval`) with {@link useLiveOptions}: the page's interval while
 * something on it is pending, a doubling back-off to 12 times it when nothing is, nothing at all
 * while the tab is hidden (`document.visibilityState`; one refresh when it is shown again). They say
 * how fresh they are with {@link UpdatedAgo} (seen, never announced: a screen reader hears only
 * {@link LiveAnnouncement}'s changes of substance) and count down to a document's next retry with
 * {@link NextAttemptCountdown}.
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { formatShortDateTime } from '../lib/format.ts';
import { StatusBadge, type TStatusTone } from '@ecf/ui';
import {
  formatClock,
  formatWait,
  nextAttemptText,
  nextRefreshDelay,
  updatedAgoText,
} from '../lib/live-status.ts';
import styles from './live-status.module.css';

function subscribeToVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

/** Whether the tab is shown (`document.visibilityState`); true on the server. */
export function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeToVisibility,
    () => document.visibilityState !== 'hidden',
    () => true,
  );
}

/**
 * The current time, ticking every `stepMs` while the tab is shown (frozen while hidden); null until
 * the page is hydrated, so the server's HTML and the first client render say the same.
 */
export function useNow(stepMs = 1000): number | null {
  const visible = usePageVisible();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (!visible) return undefined;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), stepMs);
    return () => window.clearInterval(timer);
  }, [visible, stepMs]);
  return now;
}

/**
 * Query options of a live page's poll: `isPending(data)` says whether something on the page is
 * still moving (refresh every `pollMs`); otherwise the page backs off (or stops: `stopWhenIdle`).
 * `markActive()` restarts the back-off (call it when the data changed). Never polls a hidden tab.
 */
export function useLiveOptions<TData>(config: {
  pollMs: number;
  isPending: (data: TData) => boolean;
  stopWhenIdle?: boolean;
}) {
  const visible = usePageVisible();
  const activeAt = useRef(0);
  useEffect(() => {
    activeAt.current = Date.now();
  }, []);
  const markActive = useCallback(() => {
    activeAt.current = Date.now();
  }, []);
  const { pollMs, isPending, stopWhenIdle } = config;
  const refetchInterval = useCallback(
    (query: { state: { data: TData | undefined } }): number | false => {
      if (!visible) return false;
      const data = query.state.data;
      // Nothing read yet (a failed first read): keep trying at the page's pace.
      if (data === undefined) return pollMs;
      const pending = isPending(data);
      if (pending) activeAt.current = Date.now();
      return nextRefreshDelay({
        pollMs,
        pending,
        idleForMs: Date.now() - (activeAt.current || Date.now()),
        stopWhenIdle,
      });
    },
    [visible, pollMs, isPending, stopWhenIdle],
  );
  return {
    options: {
      staleTime: 0,
      refetchOnWindowFocus: true,
      refetchIntervalInBackground: false,
      refetchInterval,
    },
    markActive,
  };
}

/**
 * "Actualizado hace N s": when the page's data was last read. Updated every second on screen but
 * not a live region (it would be announced every second); a failed refresh says so.
 */
export function UpdatedAgo(props: { at: number; failed?: boolean }) {
  const now = useNow();
  return (
    <p className={styles.updated} data-testid="live-updated">
      {updatedAgoText(props.at, Math.max(now ?? props.at, props.at))}
      {props.failed === true ? ' · No se pudo actualizar; se reintenta sola.' : ''}
    </p>
  );
}

/**
 * A polite live region that speaks only when `message` changes (a document accepted, a new
 * document in contingency): never the clock.
 */
export function LiveAnnouncement(props: { message: string }) {
  return (
    <p role="status" className="ecf-visually-hidden">
      {props.message}
    </p>
  );
}

/**
 * "Próximo intento en 2 min 10 s" for a document in contingency, counting down every second, the
 * retry's time in `title` and `dateTime`. `withTime`: a table column already named "Próximo
 * intento" (the time, then "en 2 min 10 s" under it).
 */
export function NextAttemptCountdown(props: { at: string; withTime?: boolean }) {
  const now = useNow();
  const time = formatShortDateTime(props.at);
  const text = now === null ? `Próximo intento: ${time}` : nextAttemptText(props.at, now);
  if (props.withTime === true)
    return (
      <>
        <time dateTime={props.at}>{time}</time>
        {now === null ? null : (
          <span className={styles.countdown} data-testid="next-attempt">
            {text.replace(/^Próximo intento:? /, '')}
          </span>
        )}
      </>
    );
  return (
    <span className={styles.countdown} data-testid="next-attempt">
      <time dateTime={props.at} title={time}>
        {text}
      </time>
    </span>
  );
}

/**
 * A dense table row's status badge for a document in contingency: "Reintento en 9:35", counting
 * down, as wide as "En contingencia" (the documents list stays one line per row at 1366 px). Screen
 * readers hear the status and the wait in words; the retry's time is in `title`. `label` (the
 * status's own badge text) is shown until the page is hydrated and once the retry is due.
 */
export function NextAttemptBadge(props: { at: string; label: string; tone: TStatusTone }) {
  const now = useNow();
  const left = now === null ? 0 : Date.parse(props.at) - now;
  if (now === null || left <= 0) return <StatusBadge tone={props.tone}>{props.label}</StatusBadge>;
  return (
    <span
      title={`${props.label}. Próximo intento: ${formatShortDateTime(props.at)}`}
      data-testid="next-attempt"
    >
      <StatusBadge tone={props.tone}>
        <span aria-hidden="true">Reintento en {formatClock(left)}</span>
        <span className="ecf-visually-hidden">
          {props.label}, próximo intento en {formatWait(left)}
        </span>
      </StatusBadge>
    </span>
  );
}
