// The planner when another item takes the place or the name of one a side deleted (seeds 6683, 6722).
import { describe, expect, it } from 'vitest';
import { World } from './planner-world.ts';

describe('an item in the place of one the device deleted', () => {
  it('a folder made again where the device deleted one goes up, not to the trash', () => {
    const world = new World().synced('d/').deleteLocal('d').newLocal('d/').deleteRemote('d');
    expect(world.ops()).toEqual(['remote-create-folder d in root-id replaces r:d']);
  });
  it('an empty folder renamed onto the NFD name of a folder deleted on both sides goes up (seed 6683)', () => {
    const world = new World().synced('docs/').synced('r\u00e9sum\u00e9/');
    world
      .deleteLocal('r\u00e9sum\u00e9')
      .moveLocal('docs', 're\u0301sume\u0301')
      .deleteRemote('r\u00e9sum\u00e9');
    const ops = world.ops();
    expect(ops).toContain('remote-create-folder re\u0301sume\u0301 in root-id replaces r:r\u00e9sum\u00e9');
    expect(ops.some((op) => op.startsWith('local-trash'))).toBe(false);
  });
});

describe('a restored local folder and a new remote folder of one name', () => {
  it('are one folder: no case clash, no second create, the content goes into the device folder', () => {
    const world = new World().synced('a/').synced('a/k.txt').moveLocal('a', 'Docs').editLocal('Docs/k.txt');
    world.deleteRemote('a').newRemote('Docs/');
    expect(world.ops()).toEqual([
      'upload Docs/k.txt in r:new:Docs replaces r:a/k.txt',
      'index-update r:new:Docs',
    ]);
  });
  it('keep the clash rule for a file and a folder of one name', () => {
    const world = new World().synced('a/').synced('a/k.txt').moveLocal('a', 'Docs').editLocal('Docs/k.txt');
    world.deleteRemote('a').newRemote('Docs');
    expect(world.ops().some((op) => op.includes('case clash'))).toBe(true);
  });
});
