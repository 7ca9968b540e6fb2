// A small seeded PRNG (mulberry32), so a seed number alone reproduces a whole randomized scenario.

export class Random {
  #state: number;

  constructor(seed: number) {
    // Spread small consecutive seeds apart; mulberry32's first outputs for 1, 2, 3... are correlated.
    this.#state = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One key of `weights`, each as likely as its weight (weights of 0 are never picked). */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0 && weight > 0) return key;
    }
    const last = entries.findLast(([, weight]) => weight > 0);
    if (!last) throw new Error('weighted pick with no positive weight');
    return last[0];
  }
}
