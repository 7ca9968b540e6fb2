// The randomized test's PRNG: a seed gives the same numbers every time, and picks stay in range.
import { describe, expect, it } from 'vitest';
import { Random } from '../../reliability/canopy/random.ts';

function first(seed: number, count: number): number[] {
  const random = new Random(seed);
  return Array.from({ length: count }, () => random.next());
}

describe('Random', () => {
  it('repeats the same sequence for the same seed', () => {
    expect(first(42, 20)).toEqual(first(42, 20));
  });

  it('gives neighbouring seeds different sequences', () => {
    const starts = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => first(seed, 1)[0]));
    expect(starts.size).toBe(8);
  });

  it('stays in [0, 1) and spreads over the range', () => {
    const values = first(7, 10_000);
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    const buckets = new Array<number>(10).fill(0);
    for (const value of values) buckets[Math.floor(value * 10)] = (buckets[Math.floor(value * 10)] ?? 0) + 1;
    // 1000 expected per bucket; a broken generator (constant, or stuck in half the range) is far off.
    expect(Math.min(...buckets)).toBeGreaterThan(800);
  });

  it('includes both ends of int(min, max) and nothing outside', () => {
    const random = new Random(3);
    const seen = new Set(Array.from({ length: 500 }, () => random.int(2, 5)));
    expect([...seen].sort()).toEqual([2, 3, 4, 5]);
  });

  it('never picks a key of weight 0', () => {
    const random = new Random(9);
    const picks = new Set(Array.from({ length: 500 }, () => random.weighted({ a: 1, never: 0, b: 3 })));
    expect([...picks].sort()).toEqual(['a', 'b']);
  });

  it('refuses to pick from nothing', () => {
    expect(() => new Random(1).pick([])).toThrow();
    expect(() => new Random(1).weighted({ a: 0 })).toThrow();
  });
});
