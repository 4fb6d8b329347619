import styles from '../../../status-page.module.css';

/**
 * 404 of the embedded pages (a Partner's iframe): a link that is not one of ours or was altered.
 * No "Ir al inicio": inside another application the portal's home means nothing.
 */
export default function EmbedNotFound() {
  return (
    <main id="main" className={styles.page}>
      <h1>Enlace no válido</h1>
      <p>
        Este enlace de certificación no es válido o fue modificado. Vuelva a abrir la certificación desde la
        aplicación de su proveedor de software.
      </p>
    </main>
  );
}
