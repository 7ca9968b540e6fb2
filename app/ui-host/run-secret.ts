// The per-run secret of the UI host: made once per start, given in the printed address, then kept as a cookie.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * 256 random bits, base64url. Compared through their SHA-256 in constant time, so neither the secret's
 * bytes nor its length can be learned from how long a refusal takes.
 */
export class RunSecret {
  readonly value: string;
  /**
   * Browsers keep cookies per host name, not per port: with one name for every run, a second
   * `mch-sync ui` would overwrite the first one's cookie and sign its tab out. So the port is in it.
   */
  readonly cookieName: string;
  readonly #digest: Buffer;

  constructor(port: number, value: string = randomBytes(32).toString('base64url')) {
    this.value = value;
    this.cookieName = `mch_ui_${port}`;
    this.#digest = digest(value);
  }

  matches(candidate: string): boolean {
    return timingSafeEqual(digest(candidate), this.#digest);
  }

  /**
   * HttpOnly: no script, ours or injected, can read it. SameSite=Strict: no other site's page can make
   * the browser send it. Not `Secure`: this is plain http on loopback, where browsers would refuse or
   * ignore it. No expiry: it ends with the browser session, and the next run has another secret anyway.
   */
  setCookieHeader(): string {
    return `${this.cookieName}=${this.value}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** True when one of the cookies sent (a `Cookie` header) is this run's. */
  isInCookies(header: string | undefined): boolean {
    if (header === undefined) return false;
    let found = false;
    for (const pair of header.split(';')) {
      const equals = pair.indexOf('=');
      if (equals < 0 || pair.slice(0, equals).trim() !== this.cookieName) continue;
      // Every candidate is compared, so the time taken does not say which one was right.
      if (this.matches(pair.slice(equals + 1).trim())) found = true;
    }
    return found;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
