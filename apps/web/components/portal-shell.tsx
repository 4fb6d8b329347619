/**
 * The portal's frame around every signed-in page: skip link, header (account switcher, environment
 * switcher, the user and signing out), the data-driven navigation (lib/navigation.ts) and `<main>`.
 * From 320 px up (README "Layout and widths"): the sidebar from 900 px, a "Menú" button below.
 */
import type { ReactNode } from 'react';
import { StatusBadge } from '@ecf/ui';
import {
  DEFAULT_ENVIRONMENT,
  ENVIRONMENTS,
  environmentOfPath,
  switchEnvironmentPath,
  type TEnvironment,
} from '../lib/environments.ts';
import { hrefOf, isActiveEntry, visibleNavEntries, NAV_ENTRIES } from '../lib/navigation.ts';
import { DocumentJump } from './document-jump.tsx';
import { PortalNav } from './portal-nav.tsx';
import { SignOutButton, SignOutEverywhereButton } from './sign-out-buttons.tsx';
import { TenantSwitcher, type TTenantOption } from './tenant-switcher.tsx';
import styles from './portal-shell.module.css';

/** Where each environment link of the switcher goes from `pathname`; empty when no page is per environment yet. */
export function environmentLinks(pathname: string, capabilities: readonly string[], preferred: TEnvironment) {
  const current = environmentOfPath(pathname);
  const firstEnvironmentPage = visibleNavEntries(capabilities).find((entry) => entry.scope === 'environment');
  return ENVIRONMENTS.flatMap((environment) => {
    const href =
      current !== null
        ? switchEnvironmentPath(pathname, environment)
        : firstEnvironmentPage === undefined
          ? null
          : hrefOf(firstEnvironmentPage, environment);
    return href === null ? [] : [{ environment, href, current: (current ?? preferred) === environment }];
  });
}

export function PortalShell(props: {
  children: ReactNode;
  pathname: string;
  user: { name: string; email: string; isSupport: boolean };
  tenants: readonly TTenantOption[];
  activeTenantId: string | null;
  capabilities: readonly string[];
  environment: TEnvironment | null;
}) {
  const environment = environmentOfPath(props.pathname) ?? props.environment ?? DEFAULT_ENVIRONMENT;
  const entries = visibleNavEntries(props.capabilities, NAV_ENTRIES);
  const environments = environmentLinks(props.pathname, props.capabilities, environment);
  return (
    <>
      <a href="#main" className={styles.skip}>
        Saltar al contenido
      </a>
      <header className={styles.header}>
        <a href="/" className={styles.brand}>
          Portal e-CF
        </a>
        <div className={styles.controls}>
          <TenantSwitcher tenants={props.tenants} activeTenantId={props.activeTenantId} />
          {props.activeTenantId !== null && props.capabilities.includes('documents.read') ? (
            <DocumentJump environment={environment} />
          ) : null}
          {environments.length > 0 ? (
            <nav aria-label="Entorno">
              <ul className={styles.environments}>
                {environments.map((link) => (
                  <li key={link.environment}>
                    <a
                      href={link.href}
                      className={styles.environmentLink}
                      aria-current={link.current ? 'page' : undefined}
                    >
                      {link.environment}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <div className={styles.user}>
            <span>
              <span className={styles.userName}>{props.user.name}</span>
              {props.user.isSupport ? (
                <span className={styles.supportTag}>
                  <StatusBadge tone="warning">Soporte</StatusBadge>
                </span>
              ) : null}
            </span>
            <SignOutButton />
            <SignOutEverywhereButton />
          </div>
        </div>
      </header>
      <div className={styles.body}>
        <PortalNav
          links={entries.map((entry) => ({
            id: entry.id,
            href: hrefOf(entry, environment),
            label: entry.label,
            current: isActiveEntry(entry, props.pathname),
          }))}
        />
        <main id="main" className={styles.main}>
          {props.children}
        </main>
      </div>
    </>
  );
}
