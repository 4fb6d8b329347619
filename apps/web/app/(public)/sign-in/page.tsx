import { redirect } from 'next/navigation';
import { getPortalSession } from '../../../auth/portal-session.ts';
import { SignInForm } from '../../../components/sign-in-form.tsx';
import styles from '../public.module.css';

export const metadata = { title: 'Iniciar sesión' };

type TSearch = { callbackUrl?: string; email?: string; reset?: string; joined?: string };

export default async function SignInPage(props: { searchParams: Promise<TSearch> }) {
  const search = await props.searchParams;
  if ((await getPortalSession()) !== null) redirect('/');
  const notice =
    search.reset === '1'
      ? 'Su contraseña cambió. Inicie sesión con la nueva.'
      : search.joined === '1'
        ? 'Ya es miembro de la cuenta. Inicie sesión para empezar.'
        : undefined;
  return (
    <>
      <h1>Iniciar sesión</h1>
      <SignInForm
        {...(search.callbackUrl === undefined ? {} : { callbackUrl: search.callbackUrl })}
        {...(search.email === undefined ? {} : { email: search.email })}
        {...(notice === undefined ? {} : { notice })}
      />
      <nav aria-label="Ayuda para entrar" className={styles.links}>
        <a href="/forgot-password">¿Olvidó su contraseña?</a>
      </nav>
    </>
  );
}
