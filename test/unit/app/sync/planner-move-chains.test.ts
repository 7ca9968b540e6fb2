// Local moves that follow remote rename chains: each goes where its new parent is at that point.
import { describe, expect, it } from 'vitest';
import { World } from './planner-world.ts';

describe('remote rename chains through a parent', () => {
  // Seed 1208: the plan moved `notes` to `notes/Notes`, into itself (EINVAL).
  it('a folder moved into a folder that then takes its name goes in first, then the parent moves', () => {
    const world = new World().synced('d/').synced('notes/');
    world.moveRemote('notes', 'd/Notes').moveRemote('d', 'notes');
    expect(world.ops()).toEqual(['local-move notes -> d/Notes', 'local-move d -> notes']);
  });
  it('a file moved into a renamed folder that takes its old name', () => {
    const world = new World().synced('d/').synced('x.txt');
    world.moveRemote('x.txt', 'd/x.txt').moveRemote('d', 'x.txt');
    expect(world.ops()).toEqual(['local-move x.txt -> d/x.txt', 'local-move d -> x.txt']);
  });
  it('a folder that must go inside its own child waits while the child moves out (parked)', () => {
    const world = new World().synced('a/').synced('a/b/');
    world.moveRemote('a/b', 'b').moveRemote('a', 'b/a').moveRemote('b', 'a');
    expect(world.ops()).toEqual([
      'local-move a -> .mch-moving-1-a',
      'local-move .mch-moving-1-a/b -> a',
      'local-move .mch-moving-1-a -> a/a',
    ]);
  });
  it('a new remote folder inside a renamed folder whose move waits is made where that folder is', () => {
    const world = new World().synced('d/').synced('e/');
    world.moveRemote('e', 'd/e').moveRemote('d', 'e').newRemote('e/n/');
    expect(world.ops()).toEqual([
      'local-move e -> d/e',
      'local-move d -> e',
      'local-mkdir e/n from r:new:e/n',
    ]);
  });
  it('a swap of two folders still goes through one temporary name', () => {
    const world = new World().synced('a/').synced('b/');
    world.moveRemote('a', 't').moveRemote('b', 'a').moveRemote('t', 'b');
    expect(world.ops()).toEqual([
      'local-move a -> .mch-moving-1-a',
      'local-move b -> a',
      'local-move .mch-moving-1-a -> b',
    ]);
  });
});
