'use client';
/**
 * The sign-in form: checked in the browser with the same zod schema authorize() checks on the
 * server, then next-auth's credentials sign-in (its CSRF token included). Wrong credentials get
 * one generic message; a lockout says how long to wait; it never says whether the e-mail exists.
 */
import { useState, type FormEvent } from 'react';
import { signIn } from 'next-auth/react';
import { Banner, Button, TextField } from '@ecf/ui';
import { decodeSignInFailure, signInFailureMessage } from '../auth/sign-in-errors.ts';
import { ZSignInInput } from '../lib/schemas.ts';

/** Only same-site paths are followed after signing in (no open redirect through `callbackUrl`). */
function safeReturnPath(callbackUrl: string | undefined): string {
  return callbackUrl !== undefined && callbackUrl.startsWith('/') && !callbackUrl.startsWith('//')
    ? callbackUrl
    : '/';
}

export function SignInForm(props: { callbackUrl?: string; email?: string; notice?: string }) {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = ZSignInInput.safeParse({ email: form.get('email'), password: form.get('password') });
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
      setFieldErrors(errors);
      setMessage(null);
      return;
    }
    setFieldErrors({});
    setBusy(true);
    const result = await signIn('credentials', { redirect: false, ...parsed.data });
    setBusy(false);
    const failure = result?.ok === true ? null : decodeSignInFailure(result?.error ?? 'UNAVAILABLE');
    if (failure === null) {
      // A full navigation: the new session cookie is read by the server on the next request.
      window.location.assign(safeReturnPath(props.callbackUrl));
      return;
    }
    setMessage(signInFailureMessage(failure));
  }

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-describedby={message ? 'sign-in-error' : undefined}
    >
      {props.notice ? <Banner tone="success">{props.notice}</Banner> : null}
      {message ? (
        <Banner tone="danger" id="sign-in-error">
          {message}
        </Banner>
      ) : null}
      <TextField
        label="Correo electrónico"
        name="email"
        type="email"
        autoComplete="username"
        required
        defaultValue={props.email}
        error={fieldErrors.email}
      />
      <TextField
        label="Contraseña"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={fieldErrors.password}
      />
      <Button type="submit" busy={busy}>
        Iniciar sesión
      </Button>
    </form>
  );
}
