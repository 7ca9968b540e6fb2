// Validates an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3), for the login page and its form.
import type { Scope } from '../../common/wire/identity.ts';
import { HttpError } from '../http/errors.ts';
import { allowedRedirectUri, isKnownClient, redirectWith } from './clients.ts';
import { optionalParam, type OAuthParams } from './oauth-params.ts';
import { isWellFormedChallenge, PKCE_METHOD } from './pkce.ts';
import { grantScopes } from './scopes.ts';

export interface AuthorizeRequest {
  clientId: string;
  /** As given: the token request must repeat it exactly. */
  redirectUri: string;
  redirectUrl: URL;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string;
  /** The request's own parameters, which the login form carries in hidden fields. */
  carried: Record<string, string>;
}

export type AuthorizeCheck =
  | { kind: 'valid'; request: AuthorizeRequest }
  /** Client or redirect URI is wrong: the user is told, and nobody is redirected anywhere. */
  | { kind: 'untrusted'; message: string }
  /** Anything else wrong is reported to the validated redirect URI (RFC 6749 §4.1.2.1). */
  | { kind: 'redirect'; location: string };

const CARRIED_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'audience',
] as const;

function untrusted(message: string): AuthorizeCheck {
  return { kind: 'untrusted', message };
}

export function checkAuthorizeRequest(params: OAuthParams): AuthorizeCheck {
  let clientId: string | undefined;
  let redirectUri: string | undefined;
  try {
    clientId = optionalParam(params, 'client_id');
    redirectUri = optionalParam(params, 'redirect_uri');
  } catch (error) {
    if (error instanceof HttpError) return untrusted(error.message);
    throw error;
  }
  if (clientId === undefined)
    return untrusted('The request does not say which app is signing in (client_id).');
  if (!isKnownClient(clientId)) return untrusted('The app that sent you here is not known to this device.');
  if (redirectUri === undefined) return untrusted('The request does not say where to return (redirect_uri).');
  const redirectUrl = allowedRedirectUri(redirectUri);
  if (!redirectUrl) {
    return untrusted(
      'The app asked to return to an address this device does not allow: only http://127.0.0.1, http://localhost and http://[::1] addresses are.',
    );
  }
  let state: string | undefined;
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    location: redirectWith(redirectUrl, { error, error_description: description, state }),
  });
  try {
    state = optionalParam(params, 'state');
    const responseType = optionalParam(params, 'response_type');
    if (responseType === undefined)
      return fail('invalid_request', 'The parameter response_type is required.');
    if (responseType !== 'code')
      return fail('unsupported_response_type', 'Only response_type=code is supported.');
    const codeChallenge = optionalParam(params, 'code_challenge');
    if (codeChallenge === undefined)
      return fail('invalid_request', 'A code_challenge (PKCE, S256) is required.');
    // RFC 7636 §4.3 makes `plain` the default method; this device refuses it, given or implied.
    if (optionalParam(params, 'code_challenge_method') !== PKCE_METHOD) {
      return fail('invalid_request', 'The code_challenge_method must be S256.');
    }
    if (!isWellFormedChallenge(codeChallenge)) {
      return fail('invalid_request', 'The code_challenge must be a base64url SHA-256 hash (43 characters).');
    }
    const carried: Record<string, string> = {};
    for (const name of CARRIED_PARAMS) {
      // The audience picks an API in Auth0; the device has one API, so its value is not checked.
      const value = optionalParam(params, name);
      if (value !== undefined) carried[name] = value;
    }
    const scopes = grantScopes(optionalParam(params, 'scope'));
    return {
      kind: 'valid',
      request: { clientId, redirectUri, redirectUrl, scopes, state, codeChallenge, carried },
    };
  } catch (error) {
    if (error instanceof HttpError) return fail(error.label, error.message);
    throw error;
  }
}
