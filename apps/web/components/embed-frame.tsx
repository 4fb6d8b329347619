'use client';
/**
 * The embedded certification page's frame (a Partner's iframe, `/embed/certification/{token}`):
 *
 * - its height for the parent frame: `{ type: 'ecf:embed-height', height }` (CSS pixels, an
 *   integer) posted to the token's origin only (never `*`), on load and whenever the content's size
 *   changes (ResizeObserver), so the Partner can size the iframe without a scrollbar;
 * - the link's expiry: when it ends, and once it ended a clear notice (the page stays as it was
 *   read, and says so).
 *
 * docs/partner-api.md "Embedding" documents the message for Partners.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Banner } from '@ecf/ui';
import { formatDateTime } from '../lib/format.ts';
import styles from './embed.module.css';

/** The message's `type`. */
export const EMBED_HEIGHT_MESSAGE = 'ecf:embed-height';

export function EmbedFrame(props: { origin: string; expiresAt: string; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const [expired, setExpired] = useState(false);

  useEffect(() => {
    const element = frame.current;
    if (element === null || window.parent === window) return;
    let last = -1;
    const post = () => {
      const height = Math.ceil(element.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: EMBED_HEIGHT_MESSAGE, height }, props.origin);
    };
    post();
    const observer = new ResizeObserver(post);
    observer.observe(element);
    return () => observer.disconnect();
  }, [props.origin]);

  useEffect(() => {
    const left = Date.parse(props.expiresAt) - Date.now();
    if (left <= 0) {
      setExpired(true);
      return;
    }
    // setTimeout holds at most ~24.8 days; links last 15 minutes.
    const timer = setTimeout(() => setExpired(true), Math.min(left, 2_147_000_000));
    return () => clearTimeout(timer);
  }, [props.expiresAt]);

  return (
    <div ref={frame} className={styles.frame}>
      {expired ? (
        <Banner tone="warning" title="El enlace venció">
          <p>
            Este enlace venció el {formatDateTime(props.expiresAt)} (hora de Santo Domingo). Lo que ve es la
            certificación tal como estaba al abrirlo; para verla al día, vuelva a abrirla desde la aplicación
            de su proveedor de software.
          </p>
        </Banner>
      ) : (
        <p className={styles.expiry} data-testid="embed-expiry">
          Este enlace vale hasta el {formatDateTime(props.expiresAt)} (hora de Santo Domingo).
        </p>
      )}
      {props.children}
    </div>
  );
}
