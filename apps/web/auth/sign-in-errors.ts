/**
 * How a refused sign-in travels from next-auth's authorize() (server) to the sign-in form: next-auth
 * passes the thrown error's message through as `error`, so the message is a small code,
 * `CODE[:reason:retryAfterSeconds]`. Client-safe.
 */
export type TSignInFailure =
  | { code: 'INVALID_INPUT' }
  | { code: 'INVALID_CREDENTIALS' }
  | { code: 'TOO_MANY_ATTEMPTS'; reason: 'account' | 'ip'; retryAfterSeconds: number }
  | { code: 'UNAVAILABLE' };

export function encodeSignInFailure(failure: TSignInFailure): string {
  return failure.code === 'TOO_MANY_ATTEMPTS'
    ? `${failure.code}:${failure.reason}:${failure.retryAfterSeconds}`
    : failure.code;
}

export function decodeSignInFailure(error: string | null | undefined): TSignInFailure | null {
  if (error === null || error === undefined || error === '') return null;
  const [code, reason, seconds] = error.split(':');
  if (code === 'TOO_MANY_ATTEMPTS' && (reason === 'account' || reason === 'ip'))
    return { code, reason, retryAfterSeconds: Math.max(1, Number(seconds) || 1) };
  if (code === 'INVALID_INPUT' || code === 'INVALID_CREDENTIALS') return { code };
  // next-auth's own `CredentialsSignin` (no user returned) reads as wrong credentials.
  if (code === 'CredentialsSignin') return { code: 'INVALID_CREDENTIALS' };
  return { code: 'UNAVAILABLE' };
}

/** "30 segundos", "2 minutos": the wait, as the lockout message says it. */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
}

/** The message the sign-in form shows (never whether the e-mail has an account). */
export function signInFailureMessage(failure: TSignInFailure): string {
  switch (failure.code) {
    case 'INVALID_CREDENTIALS':
      return 'El correo electrónico o la contraseña no son correctos.';
    case 'TOO_MANY_ATTEMPTS':
      return failure.reason === 'account'
        ? `Demasiados intentos fallidos con este correo. Espere ${describeWait(failure.retryAfterSeconds)} antes de volver a intentarlo.`
        : `Demasiados intentos desde esta conexión. Espere ${describeWait(failure.retryAfterSeconds)} antes de volver a intentarlo.`;
    case 'INVALID_INPUT':
      return 'Revise los campos marcados.';
    case 'UNAVAILABLE':
      return 'No se pudo iniciar sesión ahora. Inténtelo de nuevo en unos minutos.';
  }
}
