// Unit tests of media-time search: what the media time is, and that every page query uses its index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaTimeSql, type MediaTimeQuery } from '../../../../device/search/media-search.ts';
import { createSearchFixture, type SearchFixture } from './fixture.ts';

let fixture: SearchFixture;
const at = (iso: string): number => Date.parse(iso);
const ALL: MediaTimeQuery = {
  startTime: at('2000-01-01T00:00:00Z'),
  endTime: at('2100-01-01T00:00:00Z'),
  groups: new Set(['image', 'video']),
};

beforeAll(() => {
  fixture = createSearchFixture();
  const root = fixture.alice.rootId;
  const image = (date: string): string => JSON.stringify({ date, width: 4000, height: 3000 });
  fixture.add(root, 'dated.jpg', { mime_type: 'image/jpeg', image: image('2024:06:15 14:30:05') });
  fixture.add(root, 'undated.png', { mime_type: 'image/PNG', m_time: at('2024-06-15T14:30:04Z') });
  fixture.add(root, 'zero date.jpg', {
    mime_type: 'image/jpeg',
    image: image('0000:00:00 00:00:00'),
    m_time: at('2024-06-15T14:30:06Z'),
  });
  fixture.add(root, 'clip.mp4', { mime_type: 'video/mp4', m_time: at('2024-06-15T14:30:05Z') });
  fixture.add(root, 'notes.txt', { mime_type: 'text/plain', m_time: at('2024-06-15T14:30:05Z') });
});

afterAll(() => fixture.close());

function names(query: MediaTimeQuery): string[] {
  return fixture.mediaSearch.page(fixture.alice, query, 100).rows.map((row) => row.name);
}

describe('media time', () => {
  it('is the image date read as UTC, else mTime; oldest first, ties by id; media files only', () => {
    const dated = names(ALL);
    expect(dated.slice(0, 1)).toEqual(['undated.png']);
    expect(dated.slice(1, 3).sort()).toEqual(['clip.mp4', 'dated.jpg']);
    expect(dated.slice(3)).toEqual(['zero date.jpg']);
  });

  it('includes both ends of the range', () => {
    const instant = at('2024-06-15T14:30:05Z');
    expect(names({ ...ALL, startTime: instant, endTime: instant }).sort()).toEqual(['clip.mp4', 'dated.jpg']);
  });

  it('filters by mime group and by image size', () => {
    expect(names({ ...ALL, groups: new Set(['video']) })).toEqual(['clip.mp4']);
    expect(names({ ...ALL, minWidth: 4000, minHeight: 3000 }).sort()).toEqual(['dated.jpg', 'zero date.jpg']);
    expect(names({ ...ALL, minWidth: 4001 })).toEqual([]);
  });
});

describe('the page query', () => {
  it.each<[string, MediaTimeQuery]>([
    ['both groups', ALL],
    ['one group', { ...ALL, groups: new Set(['image']) }],
    ['a minimum size', { ...ALL, minWidth: 10, minHeight: 10 }],
  ])('seeks the items_media_time index for %s', (_label, query) => {
    const plan = fixture.db
      .prepare<Record<string, number | string>, { detail: string }>(
        `EXPLAIN QUERY PLAN ${mediaTimeSql(query)}`,
      )
      .all({ start: 0, end: 1, afterTime: 0, afterId: '', limit: 1, minWidth: 0, minHeight: 0 })
      .map((row) => row.detail);
    expect(plan.join('\n')).toMatch(/USING INDEX items_media_time \(<expr>>\? AND <expr><\?\)/);
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});
