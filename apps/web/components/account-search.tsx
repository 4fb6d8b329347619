import { Button, LinkButton, TextField } from '@ecf/ui';
import styles from './document-pages.module.css';

/**
 * The account search box (issue 27) of support's /accounts and a Partner's /partner/accounts: a GET
 * form (the search lives in the URL), the start of an RNC or part of a name, its error on the field.
 */
export function AccountSearchForm(props: {
  action: string;
  label: string;
  value: string | undefined;
  error: string | null;
}) {
  return (
    <form method="get" action={props.action} role="search" aria-label={props.label}>
      <div className={styles.filters}>
        <TextField
          label="Buscar cuenta"
          name="q"
          defaultValue={props.value ?? ''}
          hint="RNC o cédula (o su inicio), o parte del nombre."
          autoComplete="off"
          error={props.error}
        />
      </div>
      <div className={styles.actions}>
        <Button type="submit">Buscar</Button>
        {props.value === undefined ? null : <LinkButton href={props.action}>Quitar búsqueda</LinkButton>}
      </div>
    </form>
  );
}

/** "Anterior" / "Página siguiente" of an offset-paged list (nothing when there is one page). */
export function OffsetPager(props: { previousHref: string | null; nextHref: string | null }) {
  if (props.previousHref === null && props.nextHref === null) return null;
  return (
    <nav className={styles.actions} aria-label="Páginas">
      {props.previousHref === null ? null : <LinkButton href={props.previousHref}>Anterior</LinkButton>}
      {props.nextHref === null ? null : <LinkButton href={props.nextHref}>Página siguiente</LinkButton>}
    </nav>
  );
}
