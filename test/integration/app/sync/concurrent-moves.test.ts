// Many local renames in one pass go to the real device a few at a time, still one PATCH each and no transfer.
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { HostileServer } from '../../../helpers/hostile-server.ts';
import { files, isTransfer, startDeviceProxy, type SyncPair } from '../../../helpers/sync-pair.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';

const proxies: HostileServer[] = [];

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

const FOLDERS = 5;
const FILES_PER_FOLDER = 8;

/** 40 files in 5 folders, and a folder for a swap (a, b) and a chain (c, d). */
function startTexts(): Record<string, string> {
  const texts: Record<string, string> = {};
  for (let folder = 0; folder < FOLDERS; folder += 1) {
    for (let file = 0; file < FILES_PER_FOLDER; file += 1)
      texts[`f${folder}/n${file}.txt`] = `${folder}.${file}`;
  }
  for (const name of ['a', 'b', 'c', 'd']) texts[`mix/${name}.txt`] = `mix ${name}`;
  return texts;
}

/** Where each file ends: renamed in its folder; a and b swapped; c → d while d → e. */
const renames: Record<string, string> = {
  'mix/a.txt': 'mix/b.txt',
  'mix/b.txt': 'mix/a.txt',
  'mix/c.txt': 'mix/d.txt',
  'mix/d.txt': 'mix/e.txt',
};
for (let folder = 0; folder < FOLDERS; folder += 1) {
  for (let file = 0; file < FILES_PER_FOLDER; file += 1) {
    renames[`f${folder}/n${file}.txt`] = `f${folder}/renamed-${file}.txt`;
  }
}

/** The answers the engine has had to PATCH requests so far (a 409 is an answer too). */
function patchAnswers(pair: SyncPair): number {
  return pair.client.log.filter((entry) => entry.message === 'answer' && entry.request.startsWith('PATCH '))
    .length;
}

describe('a pass with many independent renames', () => {
  it('sends one PATCH per independent rename, several at a time, and both sides end identical', async ({
    device,
    newPair,
  }) => {
    // At each PATCH's arrival at the device: how many PATCHes of the pass the engine has sent and not yet
    // had answered (the arriving one included).
    const outstanding: number[] = [];
    let patchesSent = 0;
    let answersBefore = 0;
    const proxy = await startDeviceProxy(device.base, {
      before: (request) => {
        if (request.method !== 'PATCH') return;
        patchesSent += 1;
        outstanding.push(patchesSent - (patchAnswers(pair) - answersBefore));
      },
    });
    proxies.push(proxy);
    const pair = newPair({ deviceUrl: proxy.base });
    const texts = startTexts();
    for (const [path, text] of Object.entries(texts)) pair.writeLocal(path, text);
    const first = await pair.sync();
    expectSynced(first);
    const ids = new Map<string, string>();
    for (const path of Object.keys(renames)) ids.set(path, await pair.remoteId(path));

    // The chain's last link first, and the swap through a temporary name, all before the pass.
    pair.renameLocal('mix/d.txt', 'mix/e.txt');
    pair.renameLocal('mix/c.txt', 'mix/d.txt');
    pair.renameLocal('mix/a.txt', 'mix/swap.tmp');
    pair.renameLocal('mix/b.txt', 'mix/a.txt');
    pair.renameLocal('mix/swap.tmp', 'mix/b.txt');
    for (const [from, to] of Object.entries(renames)) {
      if (!from.startsWith('mix/')) pair.renameLocal(from, to);
    }
    patchesSent = 0;
    answersBefore = patchAnswers(pair);
    outstanding.length = 0;
    const { report, requests, writes } = await pair.syncCounting();

    expect(report.issues).toEqual([]);
    expectSynced(report);
    expect(report.counts).toMatchObject({ renamed: 44, moved: 0, uploaded: 0, downloaded: 0, deleted: 0 });
    const expected = files(
      Object.fromEntries(Object.entries(renames).map(([from, to]) => [to, texts[from] as string])),
    );
    expect(pair.localTree()).toEqual(expected);
    expect(await pair.remoteTree()).toEqual(expected);
    for (const [from, to] of Object.entries(renames)) expect(await pair.remoteId(to)).toBe(ids.get(from));

    expect(requests.filter(isTransfer)).toEqual([]);
    expect(writes.filter((write) => !write.startsWith('PATCH '))).toEqual([]);
    const patches: Record<string, number> = {};
    for (const [from] of Object.entries(renames)) {
      const request = `PATCH /sdk/v2/files/${ids.get(from)}`;
      patches[from] = writes.filter((write) => write === request).length;
    }
    // A rename whose name another item of the plan still holds (the swap's first, the chain's first
    // link in plan order) is refused once (409), waits under a temporary name, then takes its name.
    const waited = new Set(['mix/a.txt', 'mix/c.txt']);
    expect(patches).toEqual(
      Object.fromEntries(Object.keys(renames).map((from) => [from, waited.has(from) ? 3 : 1])),
    );
    const refused = pair.client.log.filter(
      (entry) => entry.message === 'answer' && entry.request.startsWith('PATCH ') && entry.status === 409,
    );
    expect(refused).toHaveLength(waited.size);
    expect(writes).toHaveLength(Object.keys(renames).length + 2 * waited.size);

    // The renames did not wait for each other, and never more than the executor's 4 went at once.
    expect(Math.max(...outstanding)).toBeGreaterThan(1);
    expect(Math.max(...outstanding)).toBeLessThanOrEqual(4);
  });
});
