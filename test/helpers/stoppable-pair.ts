// A synced pair behind a proxy that stops a pass at a chosen request, as the service's stop cancels one.
import type { TestDevice } from './device.ts';
import type { HostileServer, SeenRequest } from './hostile-server.ts';
import { startDeviceProxy, SyncPair } from './sync-pair.ts';

/** A pair whose passes can be stopped, as the service's stop cancels one, at a chosen request. */
export interface StoppablePair {
  pair: SyncPair;
  proxy: HostileServer;
  /** A signal for one pass: aborted when that pass sends the first request `stopAt` matches. */
  stopSignal: () => AbortSignal;
}

/** A pair (file index) behind a proxy that aborts the current pass's signal at `stopAt`'s request. */
export async function stoppablePair(
  device: TestDevice,
  stopAt: (request: SeenRequest) => boolean,
): Promise<StoppablePair> {
  let controller: AbortController | undefined;
  const proxy = await startDeviceProxy(device.base, {
    before: (request) => {
      if (stopAt(request)) controller?.abort();
    },
  });
  const pair = new SyncPair(device, { deviceUrl: proxy.base, indexFile: true });
  return {
    pair,
    proxy,
    stopSignal: () => {
      controller = new AbortController();
      return controller.signal;
    },
  };
}

/** A pass's first download: where a pass stops after its walk kept the new listings. */
export function atDownload(request: SeenRequest): boolean {
  return request.method === 'GET' && request.url.endsWith('/content');
}
