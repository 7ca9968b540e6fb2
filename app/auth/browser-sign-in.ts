// Sign-in through the system browser: authorization code with PKCE and a loopback redirect (RFC 8252).
import type { TokenSet } from '../api/cloud/identity-client.ts';
import { LoopbackReceiver, type RedirectOutcome } from './loopback-receiver.ts';
import { createPkcePair, createState } from './pkce.ts';

/** The part of the identity client the browser flow uses. */
export interface CodeFlowIdentity {
  authorizeUrl(request: { redirectUri: string; scope: string; state: string; codeChallenge: string }): string;
  exchangeCode(
    request: { code: string; codeVerifier: string; redirectUri: string },
    signal?: AbortSignal,
  ): Promise<TokenSet>;
}

export interface BrowserSignInOptions {
  identity: CodeFlowIdentity;
  scope: string;
  /** How long to wait for the browser (5 minutes by default). */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/**
 * One browser sign-in in progress. `start` opens the loopback receiver and makes the address to
 * open; the caller opens it (and shows it, for a browser elsewhere), then awaits `tokens()`.
 */
export class BrowserSignIn {
  /** The identity provider's sign-in page for this attempt. */
  readonly authorizeUrl: string;
  readonly redirectUri: string;
  readonly #receiver: LoopbackReceiver<TokenSet>;

  private constructor(receiver: LoopbackReceiver<TokenSet>, authorizeUrl: string) {
    this.#receiver = receiver;
    this.authorizeUrl = authorizeUrl;
    this.redirectUri = receiver.redirectUri;
  }

  static async start(options: BrowserSignInOptions): Promise<BrowserSignIn> {
    const pkce = createPkcePair();
    const state = createState();
    const receiver: LoopbackReceiver<TokenSet> = await LoopbackReceiver.start<TokenSet>({
      state,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      // RFC 6749 §4.1.3: the very redirect_uri of the authorization request.
      redeem: (code): Promise<TokenSet> =>
        options.identity.exchangeCode(
          { code, codeVerifier: pkce.verifier, redirectUri: receiver.redirectUri },
          options.signal,
        ),
    });
    const authorizeUrl = options.identity.authorizeUrl({
      redirectUri: receiver.redirectUri,
      scope: options.scope,
      state,
      codeChallenge: pkce.challenge,
    });
    return new BrowserSignIn(receiver, authorizeUrl);
  }

  /** The tokens once the browser came back with a code and it was exchanged; else why not (SignInError...). */
  tokens(): Promise<TokenSet> {
    return this.#receiver.result();
  }

  /** For a browser on another computer: the address it ended up on, pasted by the person. */
  submitRedirectUrl(text: string): RedirectOutcome {
    return this.#receiver.submitRedirectUrl(text);
  }

  cancel(): void {
    this.#receiver.cancel();
  }
}
