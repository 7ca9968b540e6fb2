// Text search, media-time search and parentAndName through the client, against the real local device.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { TextSearchPage } from '../../../../app/api/device-client.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { minimalPng } from '../../../helpers/images.ts';

describe('DeviceClient search', () => {
  it('finds files by text with fragments and locations, page by page', async ({ device }) => {
    const { device: api } = clientFor(device);
    for (const name of ['Holiday beach.txt', 'holiday mountains.txt', 'work.txt']) {
      await api.create({ name, content: Buffer.from(name) });
    }
    // The device indexes in the background: ask until both are there.
    let first: TextSearchPage = { matches: [], rejected: [], pageToken: '' };
    for (let tries = 0; tries < 50; tries += 1) {
      first = await api.searchText('holiday', { limit: 1 });
      if (first.pageToken !== '') break;
      await sleep(50);
    }
    expect(first.matches).toHaveLength(1);
    const second = await api.searchText('holiday', { limit: 1, pageToken: first.pageToken });
    const names = [...first.matches, ...second.matches].map((match) => match.file.name).sort();
    expect(names).toEqual(['Holiday beach.txt', 'holiday mountains.txt']);
    const fragment = first.matches[0]?.fragments.find((item) => item.text === first.matches[0]?.file.name);
    expect(fragment?.locations).toEqual([{ index: 0, length: 'holiday'.length }]);
  });

  it('finds images by media time', async ({ device }) => {
    const { device: api } = clientFor(device);
    const mTimeMs = Date.parse('2020-06-15T12:00:00.000Z');
    const created = await api.create({
      name: 'pic.png',
      mimeType: 'image/png',
      content: minimalPng(40, 30),
      mTimeMs,
    });
    await api.create({
      name: 'old.png',
      mimeType: 'image/png',
      content: minimalPng(4, 3),
      mTimeMs: Date.parse('2001-01-01T00:00:00Z'),
    });
    const page = await api.searchMediaTime({
      startTimeMs: Date.parse('2020-06-01T00:00:00Z'),
      endTimeMs: Date.parse('2020-07-01T00:00:00Z'),
      mimeGroups: ['image'],
      minWidth: 10,
    });
    expect(page.files.map((file) => file.id)).toEqual([created.id]);
    expect(page.files[0]?.image).toMatchObject({ width: 40, height: 30 });
    expect(page.pageToken).toBe('');
  });
});
