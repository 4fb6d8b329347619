'use client';
/**
 * The main navigation ("Principal"). From 900 px up it is the sidebar, always shown. Below 900 px
 * (phones, a narrow window, 200–400 % zoom) it collapses behind a "Menú" disclosure button
 * (`aria-expanded`, `aria-controls`): the button opens and closes the list, Escape closes it and
 * puts the focus back on the button, and following a link closes it. Which width shows what is
 * only CSS (portal-shell.module.css); this component keeps the open state.
 */
import { useEffect, useId, useRef, useState } from 'react';
import styles from './portal-shell.module.css';

export type TPortalNavLink = { id: string; href: string; label: string; current: boolean };

export function PortalNav(props: { links: readonly TPortalNavLink[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return undefined;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpen(false);
      // The focus never stays on a link that is no longer shown.
      if (list.current?.contains(document.activeElement) ?? true) button.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  // Links are plain anchors (a whole page load), but a navigation within the app (the browser's
  // back-forward cache restoring the page) must not find the menu open.
  useEffect(() => {
    function onPageShow() {
      setOpen(false);
    }
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const current = props.links.find((link) => link.current);
  return (
    <nav aria-label="Principal" className={styles.nav}>
      <button
        ref={button}
        type="button"
        className={styles.menuButton}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        <span aria-hidden="true" className={styles.menuIcon} />
        <span>
          Menú
          {current === undefined ? null : <span className={styles.menuCurrent}>: {current.label}</span>}
        </span>
      </button>
      <ul ref={list} id={listId} className={styles.navList} data-open={open ? 'true' : 'false'}>
        {props.links.map((link) => (
          <li key={link.id}>
            <a
              href={link.href}
              className={styles.navLink}
              aria-current={link.current ? 'page' : undefined}
              onClick={() => setOpen(false)}
            >
              {link.label}
            </a>
          </li>
        ))}
        {props.links.length === 0 ? <li>Elija una cuenta para ver sus páginas.</li> : null}
      </ul>
    </nav>
  );
}
