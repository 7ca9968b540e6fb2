// Listing revalidation through a proxy: never on the revalidator's raw sockets, every listing asked through the Transport's proxy.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { proxyFromEnvironment } from '../../../../app/api/http/proxy-config.ts';
import { ProxyResolver } from '../../../../app/api/http/proxy-resolver.ts';
import { ListingRevalidator } from '../../../../app/api/listing-revalidator.ts';
import { walkRemote } from '../../../../app/sync/remote/remote-walk.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { hasTinyproxy, startTinyproxy, type TinyProxy } from '../../../helpers/tinyproxy.ts';

describe.skipIf(!hasTinyproxy())('listing revalidation through a proxy (tinyproxy)', () => {
  let proxy: TinyProxy;
  beforeAll(async () => {
    proxy = await startTinyproxy();
  });
  afterAll(async () => {
    await proxy?.stop();
  });

  it('leaves every revalidation to the Transport, whose conditional listings the proxy carries', async ({
    device,
  }) => {
    const direct = clientFor(device).device;
    const root = await direct.createFolder({ parentId: 'root', name: `proxied-walk-${Date.now()}` });
    for (const name of ['a', 'b', 'c']) await direct.createFolder({ parentId: root.id, name });
    const first = await walkRemote(direct, root.id);
    const eTag = first.cache.folders.get(root.id)?.eTag as string;
    // Without a proxy the pipeline answers for itself.
    const plain = new ListingRevalidator(direct);
    expect(await plain.revalidate(root.id, eTag, undefined)).toEqual({ kind: 'not-modified' });
    plain.close();

    const proxied = clientFor(device, {
      proxy: new ProxyResolver(proxyFromEnvironment({ HTTP_PROXY: proxy.url })),
    }).device;
    const pipe = new ListingRevalidator(proxied);
    expect(await pipe.revalidate(root.id, eTag, undefined)).toEqual({ kind: 'ask-again' });
    pipe.close();

    const before = proxy.requests().length;
    const second = await walkRemote(proxied, root.id, { cache: first.cache });
    expect([...second.entries.keys()].sort()).toEqual([...first.entries.keys()].sort());
    const listings = proxy
      .requests()
      .slice(before)
      .filter((line) => line.startsWith(`GET ${device.base}/sdk/v2/filesSearch/parents?`));
    // The root and its three folders, each asked once through the proxy.
    expect(listings).toHaveLength(4);
  });
});
