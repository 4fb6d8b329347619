import { Banner } from '@ecf/ui';
import { ResetPasswordForm } from '../../../components/reset-password-form.tsx';
import { ZLinkToken } from '../../../lib/schemas.ts';
import styles from '../public.module.css';

export const metadata = { title: 'Nueva contraseña' };

/** `/reset-password?token=...`: the e-mailed link. The token is checked when the form is sent. */
export default async function ResetPasswordPage(props: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await props.searchParams;
  const valid = ZLinkToken.safeParse(token);
  return (
    <>
      <h1>Elegir una contraseña nueva</h1>
      {valid.success ? (
        <>
          <p>Al guardarla se cerrarán todas sus sesiones abiertas.</p>
          <ResetPasswordForm token={valid.data} />
        </>
      ) : (
        <Banner tone="danger" title="Enlace no válido">
          Abra el enlace completo del correo, o pida uno nuevo.
        </Banner>
      )}
      <nav aria-label="Otras acciones" className={styles.links}>
        <a href="/forgot-password">Pedir un enlace nuevo</a>
        <a href="/sign-in">Volver a iniciar sesión</a>
      </nav>
    </>
  );
}
