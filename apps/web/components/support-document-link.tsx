'use client';
/**
 * The support desk's e-NCF: a link to the document's page. The page reads the session's active
 * tenant, so when the document is another tenant's the click first switches to it
 * (`session.switchTenant`, audited like every support view) and then opens the page.
 */
import { useMutation } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { useTRPC } from '../lib/trpc/client.tsx';
import styles from './support-desk.module.css';

export function SupportDocumentLink(props: {
  href: string;
  encf: string;
  tenantId: string;
  activeTenantId: string | null;
}) {
  const trpc = useTRPC();
  const switchTenant = useMutation(trpc.session.switchTenant.mutationOptions());
  function open(event: MouseEvent<HTMLAnchorElement>) {
    if (props.tenantId === props.activeTenantId) return;
    // A new tab or window keeps the browser's own behaviour (it opens in the current tenant).
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    switchTenant.mutateAsync({ tenantId: props.tenantId }).then(
      () => window.location.assign(props.href),
      () => window.location.assign(props.href),
    );
  }
  return (
    <a
      className={styles.mono}
      href={props.href}
      onClick={open}
      aria-busy={switchTenant.isPending || undefined}
    >
      {props.encf}
    </a>
  );
}
