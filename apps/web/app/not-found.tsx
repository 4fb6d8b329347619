import styles from './status-page.module.css';

/** 404, for absent pages and for anything of another tenant (never "forbidden": that would reveal it). */
export default function NotFound() {
  return (
    <main id="main" className={styles.page}>
      <h1>Página no encontrada</h1>
      <p>Lo que busca no existe o no pertenece a su cuenta.</p>
      <p>
        <a href="/">Ir al inicio</a>
      </p>
    </main>
  );
}
