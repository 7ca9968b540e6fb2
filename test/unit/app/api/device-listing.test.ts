// A listing's request target built from a template is exactly the one listingUrl gives, whatever the folder id.
import { describe, expect, it } from 'vitest';
import { DeviceClient } from '../../../../app/api/device-client.ts';
import { listingTargets, listingUrl } from '../../../../app/api/device-listing.ts';
import { Transport } from '../../../../app/api/http/transport.ts';

const ids = [
  'abc123',
  'A-b_c.d*e',
  '',
  'with space',
  'a+b&c=d',
  'slash/and?query#hash',
  'quote\'"!~()',
  'ümlaut-日本',
  '%41%zz',
];

function targetOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

describe('listingTargets', () => {
  for (const base of ['http://127.0.0.1:4780', 'https://relay.example/proxy/abc/', 'http://[::1]:9']) {
    it(`gives listingUrl's path and query for every id, with and without a page size (${base})`, () => {
      const client = new DeviceClient({ deviceUrl: base, transport: new Transport() });
      for (const limit of [undefined, 3, 1000]) {
        const target = listingTargets(client, limit);
        for (const id of ids) {
          expect(target(id), `${id} limit ${String(limit)}`).toBe(
            targetOf(listingUrl(client, id, limit === undefined ? {} : { limit })),
          );
        }
      }
    });
  }
});
