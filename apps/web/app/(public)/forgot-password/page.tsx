import { ForgotPasswordForm } from '../../../components/forgot-password-form.tsx';
import styles from '../public.module.css';

export const metadata = { title: 'Recuperar contraseña' };

export default function ForgotPasswordPage() {
  return (
    <>
      <h1>Recuperar contraseña</h1>
      <p>Escriba el correo de su cuenta y le enviaremos un enlace para elegir una contraseña nueva.</p>
      <ForgotPasswordForm />
      <nav aria-label="Volver" className={styles.links}>
        <a href="/sign-in">Volver a iniciar sesión</a>
      </nav>
    </>
  );
}
