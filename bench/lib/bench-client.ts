// The sync client's DeviceClient for a benchmark device, with a tally of every request it sends.
import { DeviceClient } from '../../app/api/device-client.ts';
import { Transport, type AccessTokenProvider } from '../../app/api/http/transport.ts';

export interface CountedClient {
  client: DeviceClient;
  /** Answers and failures so far, by `METHOD status` (`GET 200`, `POST 201`, `GET 304`, `PUT failed`). */
  tally: Map<string, number>;
}

/** The token never changes in a benchmark: the device's token lasts longer than any run. */
function staticTokens(token: string): AccessTokenProvider {
  return { accessToken: async () => token, refreshAfterUnauthorized: async () => token };
}

export function countedClient(base: string, token: string): CountedClient {
  const tally = new Map<string, number>();
  const transport = new Transport({
    tokens: staticTokens(token),
    log: (entry) => {
      const method = entry.request.split(' ')[0] ?? '?';
      const key = `${method} ${entry.message === 'answer' ? String(entry.status) : entry.message}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    },
  });
  return { client: new DeviceClient({ deviceUrl: base, transport }), tally };
}

/** Requests that may have changed something on the device: anything but GET and HEAD. */
export function writeRequests(tally: ReadonlyMap<string, number>): number {
  let writes = 0;
  for (const [key, count] of tally) {
    if (!key.startsWith('GET ') && !key.startsWith('HEAD ')) writes += count;
  }
  return writes;
}

/** `GET 200 ×1010, GET 304 ×1010`, sorted, for a report line. */
export function describeTally(tally: ReadonlyMap<string, number>): string {
  const parts = [...tally].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `${key} ×${n}`);
  return parts.length === 0 ? 'no requests' : parts.join(', ');
}
