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

describe('moves on both sides that together would put a folder inside itself', () => {
  // Seeds 21749, 24102, 25559: the plan's parents formed a loop and finalPath recursed until the stack overflowed.
  it('a folder moved here into a folder the device moved into it goes back where the device has it', () => {
    const world = new World().synced('a/').synced('b/').synced('b/c/');
    world.moveLocal('a', 'b/c/a').moveRemote('b', 'a/b');
    expect(world.ops()).toEqual(['local-move b/c/a -> a', 'local-move b -> a/b']);
  });
  it('the loop may run through an item neither side moved', () => {
    const world = new World().synced('d/').synced('r/').synced('d/s/');
    world.moveLocal('d', 'r/sub').moveRemote('r', 'd/s/r');
    expect(world.ops()).toEqual(['local-move r/sub -> d', 'local-move r -> d/s/r']);
  });
  it('a remote edit inside the folder that gives way still comes down, at its final place', () => {
    const world = new World().synced('a/').synced('a/f.txt').synced('b/');
    world.moveLocal('a', 'b/a').moveRemote('b', 'a/b').editRemote('a/f.txt');
    expect(world.ops()).toEqual([
      'local-move b/a -> a',
      'local-move b -> a/b',
      'download-content a/f.txt from r:a/f.txt',
    ]);
  });
  it('every remote move is kept, and the local moves that do not close the loop too', () => {
    const world = new World().synced('a/').synced('b/').synced('c/').synced('x.txt');
    world.moveLocal('a', 'b/a').moveLocal('x.txt', 'c/x.txt').moveRemote('b', 'a/b');
    expect(world.ops()).toEqual([
      'local-move b/a -> a',
      'local-move b -> a/b',
      'remote-move r:x.txt name=- parent=r:c if-match "e0"',
    ]);
  });
  it('one local move gives way for a loop through two of them', () => {
    const world = new World().synced('a/').synced('b/').synced('c/').synced('d/');
    world.moveLocal('a', 'b/a').moveLocal('c', 'd/c').moveRemote('b', 'c/b').moveRemote('d', 'a/d');
    expect(world.ops()).toEqual([
      'local-move b/a -> a',
      'local-move d -> a/d',
      'remote-move r:c name=- parent=r:d if-match "e0"',
      'local-move b -> a/d/c/b',
    ]);
  });
});
