// Assertions on the identity provider's answers: an OAuth error with its status, code and description.
import { expect } from 'vitest';
import type { OAuthErrorBody } from '../../common/wire/identity.ts';

/** The answer has `status` and an OAuth error body with `error` and a description; returns the body. */
export async function expectOAuthError(
  response: Response,
  status: number,
  error: string,
): Promise<OAuthErrorBody> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as OAuthErrorBody;
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  return body;
}
