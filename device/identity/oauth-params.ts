// Reads OAuth parameters from a query, a form or a JSON body, refusing anything but single strings.
import { invalidRequest } from './oauth-errors.ts';

/** The parameters of one request; fields are own properties only, so `constructor` is never "given". */
export type OAuthParams = Readonly<Record<string, unknown>>;

/** The body of a token or revocation request as parameters; an absent body has none. */
export function bodyParams(body: unknown): OAuthParams {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest('The request body must be a JSON object or a form.');
  }
  return body as OAuthParams;
}

/**
 * One optional string parameter. RFC 6749 §3.1: a parameter sent without a value is treated as
 * omitted, and none may be given more than once (a repeated query key arrives as an array).
 */
export function optionalParam(params: OAuthParams, name: string): string | undefined {
  if (!Object.hasOwn(params, name)) return undefined;
  const value = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) throw invalidRequest(`The parameter ${name} may be given only once.`);
  if (typeof value !== 'string') throw invalidRequest(`The parameter ${name} must be a string.`);
  return value;
}

export function requiredParam(params: OAuthParams, name: string): string {
  const value = optionalParam(params, name);
  if (value === undefined) throw invalidRequest(`The parameter ${name} is required.`);
  return value;
}
