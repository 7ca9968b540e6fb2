// Typed errors of signing in, token refresh, the secret store and the profile, each with a stable code.
import { MchError } from '../../common/errors.ts';

/** Stable codes of the failures `app/auth/` and `app/profile/` report; the UI switches on these. */
export const AUTH_ERROR_CODES = [
  'SIGN_IN_REQUIRED',
  'SIGN_IN_DENIED',
  'SIGN_IN_TIMEOUT',
  'SIGN_IN_FAILED',
  'SECRET_STORE_UNAVAILABLE',
  'SECRET_STORE_FAILED',
  'PROFILE_INVALID',
] as const;
export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];

/**
 * No usable sign-in: never signed in, signed out, or the refresh token was refused (revoked, or the
 * user's password changed). Nothing but signing in again helps, so callers stop and ask for it.
 */
export class SignInRequiredError extends MchError {
  declare readonly code: 'SIGN_IN_REQUIRED';

  constructor(message: string, options?: { cause?: unknown }) {
    super('SIGN_IN_REQUIRED', 'Sign-in needed', message, options);
  }
}

/** A sign-in that was started did not finish: refused in the browser, no answer in time, or a bad answer. */
export class SignInError extends MchError {
  declare readonly code: 'SIGN_IN_DENIED' | 'SIGN_IN_TIMEOUT' | 'SIGN_IN_FAILED';

  constructor(
    code: 'SIGN_IN_DENIED' | 'SIGN_IN_TIMEOUT' | 'SIGN_IN_FAILED',
    message: string,
    options?: { cause?: unknown },
  ) {
    const titles = {
      SIGN_IN_DENIED: 'Sign-in refused',
      SIGN_IN_TIMEOUT: 'Sign-in timed out',
      SIGN_IN_FAILED: 'Sign-in failed',
    };
    super(code, titles[code], message, options);
  }
}

/** The keychain cannot be reached (UNAVAILABLE) or the secrets file cannot be read or written (FAILED). */
export class SecretStoreError extends MchError {
  declare readonly code: 'SECRET_STORE_UNAVAILABLE' | 'SECRET_STORE_FAILED';

  constructor(
    code: 'SECRET_STORE_UNAVAILABLE' | 'SECRET_STORE_FAILED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(
      code,
      code === 'SECRET_STORE_UNAVAILABLE' ? 'Keychain unavailable' : 'Secrets file unusable',
      message,
      options,
    );
  }
}
