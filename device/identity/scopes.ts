// Which scopes a token gets for what a client asked (device-api.md §2).
import { ALL_SCOPES, type Scope } from '../../common/wire/identity.ts';
import { invalidScope } from './oauth-errors.ts';

// Scope handling (decided): the requested scopes are intersected with ALL_SCOPES, so unknown ones are
// dropped as Auth0 drops them; a missing or empty scope means DEFAULT_SCOPES; when nothing is left the
// request fails with invalid_scope. The desktop client may hold every known scope. The answer keeps
// the order of the request.
export const DEFAULT_SCOPES: readonly Scope[] = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'nas_read_write',
];

function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/** The scope names of a space-separated scope string, each once (RFC 6749 §3.3). */
function splitScope(scope: string): string[] {
  return [...new Set(scope.split(/\s+/).filter((name) => name !== ''))];
}

/** The scopes granted for a sign-in that asked for `requested`. */
export function grantScopes(requested: string | undefined): Scope[] {
  const names = requested === undefined ? [] : splitScope(requested);
  if (names.length === 0) return [...DEFAULT_SCOPES];
  const granted = names.filter(isScope);
  if (granted.length === 0) {
    throw invalidScope(`None of the requested scopes is known; use some of: ${ALL_SCOPES.join(' ')}.`);
  }
  return granted;
}

/** The scopes of a space-separated scope string this device granted earlier. */
export function scopesOf(scope: string): Scope[] {
  return splitScope(scope).filter(isScope);
}

/** RFC 6749 §6: a refresh may narrow the scope it was granted but never widen it. */
export function narrowScopes(granted: string, requested: string | undefined): Scope[] {
  const grantedScopes = scopesOf(granted);
  if (requested === undefined || splitScope(requested).length === 0) return grantedScopes;
  const narrowed = grantScopes(requested);
  const widened = narrowed.filter((scope) => !grantedScopes.includes(scope));
  if (widened.length > 0) {
    throw invalidScope(`The refresh token was not granted: ${widened.join(' ')}. Sign in again to get it.`);
  }
  return narrowed;
}
