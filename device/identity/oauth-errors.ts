// OAuth error answers `{error, error_description}` of the identity provider (RFC 6749 §5.2, device-api.md §2).
import type { ErrorBodyFormat } from '../http/error-handler.ts';
import { HttpError } from '../http/errors.ts';
import type { OAuthErrorBody } from '../../common/wire/identity.ts';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unsupported_grant_type'
  | 'invalid_token';

/** An OAuth error; its label is the OAuth `error` code, so the shared error handler can carry it. */
export function oauthError(status: number, code: OAuthErrorCode, description: string): HttpError {
  return new HttpError(status, code, description);
}

export const invalidRequest = (description: string): HttpError =>
  oauthError(400, 'invalid_request', description);
export const invalidGrant = (description: string): HttpError => oauthError(400, 'invalid_grant', description);
export const invalidScope = (description: string): HttpError => oauthError(400, 'invalid_scope', description);

/** Unknown or missing client id: "client authentication failed" in RFC 6749 §5.2 terms. */
export const invalidClient = (description: string): HttpError =>
  oauthError(401, 'invalid_client', description);

/** A 401 of the userinfo endpoint, with the challenge RFC 6750 §3 asks for. */
export function invalidToken(description: string, tokenGiven: boolean): HttpError {
  // RFC 6750 §3.1: a request without any token gets the bare challenge, no error code.
  const challenge = tokenGiven ? 'Bearer error="invalid_token"' : 'Bearer';
  return new HttpError(401, 'invalid_token', description, { 'www-authenticate': challenge });
}

// The labels of errors raised outside this folder (fastify's own 4xx, the shared auth helpers).
const codeForLabel: Record<string, string> = {
  UNAUTHORIZED: 'invalid_token',
  INTERNAL_ERROR: 'server_error',
};

/** The error body format of every identity route, for `installErrorHandling`. */
export const oauthErrorBody: ErrorBodyFormat = (label, message): OAuthErrorBody => ({
  error: /^[a-z_]+$/.test(label) ? label : (codeForLabel[label] ?? 'invalid_request'),
  error_description: message,
});
