import styles from './status-page.module.css';

/** 403 (`forbidden()`): the page exists in this account but the user's role does not include it. */
export default function Forbidden() {
  return (
    <main id="main" className={styles.page}>
      <h1>Acceso no permitido</h1>
      <p>
        Su rol en esta cuenta no incluye esta página. Pida a un propietario de la cuenta que le dé acceso.
      </p>
      <p>
        <a href="/">Ir al inicio</a>
      </p>
    </main>
  );
}
