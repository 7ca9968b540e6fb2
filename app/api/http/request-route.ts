// Where a request to a service with several addresses goes: the transport asks before each attempt and tells after a failure.
import type { ApiError } from '../../../common/errors.ts';

/**
 * A service reachable at more than one base URL (the device: at home and through the relay). The
 * transport asks `resolve` before every attempt, so a retry, the next chunk of an upload or the rest of
 * a download goes to the address in use at that moment, and tells `unreachable` when an attempt got no
 * answer, so the route can look again (device-route.ts in app/auth/ implements it).
 */
export interface RequestRoute {
  /**
   * `url` moved onto the base URL in use now (unchanged when it is on none of the route's bases). Waits
   * for a check of the addresses under way, which is bounded by its probe timeout.
   */
  resolve(url: URL, signal: AbortSignal | undefined): Promise<URL>;
  /** An attempt to `url` got no answer (refused, cut, timed out): look for an address that answers. */
  unreachable(url: URL, error: ApiError): void;
}
