// The set a pass leaves out: by id wherever the folder went, by path, and what is below.
import { describe, expect, it } from 'vitest';
import { ExcludedFolders } from '../../../../../app/sync/selection/excluded-folders.ts';

describe('ExcludedFolders', () => {
  const excluded = new ExcludedFolders([
    { path: 'Photos/2019', id: 'p19' },
    { path: 'Caf\u00e9', id: 'cafe' },
  ]);

  it('excludes a folder by its id or its path, in either Unicode form', () => {
    expect(excluded.excludes({ id: 'p19', path: 'Moved/2019' })).toBe(true);
    expect(excluded.excludes({ id: 'new', path: 'Photos/2019' })).toBe(true);
    expect(excluded.excludes({ id: 'nfd', path: 'Cafe\u0301' })).toBe(true);
    expect(excluded.excludes({ id: 'other', path: 'Photos' })).toBe(false);
  });

  it('covers what is below an excluded path, and nothing beside it', () => {
    expect(excluded.covers('Photos/2019/a.jpg')).toBe(true);
    expect(excluded.covers('Photos/2019')).toBe(true);
    expect(excluded.covers('Photos/20190/a.jpg')).toBe(false);
    expect(excluded.covers('Photos')).toBe(false);
    expect(new ExcludedFolders([]).covers('anything')).toBe(false);
  });
});
