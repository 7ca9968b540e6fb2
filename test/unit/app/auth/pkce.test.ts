// PKCE values: the verifier's form (RFC 7636 §4.1), the S256 challenge (§4.2, Appendix B), fresh state.
import { describe, expect, it } from 'vitest';
import { createPkcePair, createState, pkceChallenge } from '../../../../app/auth/pkce.ts';

describe('PKCE', () => {
  it('makes a verifier of 43 to 128 unreserved characters, new each time', () => {
    const first = createPkcePair();
    expect(first.verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(first.method).toBe('S256');
    expect(createPkcePair().verifier).not.toBe(first.verifier);
  });

  it('computes the S256 challenge of RFC 7636 Appendix B', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    const pair = createPkcePair();
    expect(pair.challenge).toBe(pkceChallenge(pair.verifier));
  });

  it('makes an unguessable state of 256 bits', () => {
    const state = createState();
    expect(Buffer.from(state, 'base64url')).toHaveLength(32);
    expect(createState()).not.toBe(state);
  });
});
