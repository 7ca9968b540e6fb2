// Unit tests of the fault specification and the seeded fault sequence.
import { describe, expect, it } from 'vitest';
import { FaultInjector, FaultSpecError, parseFaultSpec } from '../../../device/faults.ts';

describe('parseFaultSpec', () => {
  it('reads every kind of fault and the scope', () => {
    expect(parseFaultSpec('error=0.05,reset=0.02,lost=0.01,latency=10-200,scope=all')).toEqual({
      error: 0.05,
      reset: 0.02,
      lost: 0.01,
      latency: { min: 10, max: 200 },
      scope: 'all',
    });
    expect(parseFaultSpec('latency=5')).toMatchObject({ latency: { min: 5, max: 5 }, scope: 'device' });
  });

  it.each([
    'error=2',
    'error=-1',
    'error=x',
    'latency=200-10',
    'latency=a',
    'scope=some',
    'bogus=1',
    'error=0.6,reset=0.6',
  ])('refuses %s', (text) => {
    expect(() => parseFaultSpec(text)).toThrow(FaultSpecError);
  });
});

describe('FaultInjector', () => {
  const spec = parseFaultSpec('error=0.2,reset=0.1,lost=0.1,latency=0-50');

  it('gives the same sequence for the same seed and another for another seed', () => {
    const sequence = (seed: number) => {
      const injector = new FaultInjector(spec, seed);
      return Array.from({ length: 200 }, () => injector.next());
    };
    expect(sequence(7)).toEqual(sequence(7));
    expect(sequence(7)).not.toEqual(sequence(8));
  });

  it('injects each fault at about its probability', () => {
    const injector = new FaultInjector(spec, 1);
    const counts = { error: 0, reset: 0, lost: 0, none: 0 };
    for (let i = 0; i < 20_000; i += 1) counts[injector.next().kind] += 1;
    expect(counts.error / 20_000).toBeCloseTo(0.2, 1);
    expect(counts.reset / 20_000).toBeCloseTo(0.1, 1);
    expect(counts.lost / 20_000).toBeCloseTo(0.1, 1);
  });

  it('spares configuration and identity routes unless the scope is all', () => {
    expect(new FaultInjector(spec, 1).affects('/config/v1/config')).toBe(false);
    expect(new FaultInjector(spec, 1).affects('/sdk/v2/files/root')).toBe(true);
    expect(new FaultInjector(spec, 1).affects('/proxy/d/sdk/v2/files/root')).toBe(true);
    expect(new FaultInjector({ ...spec, scope: 'all' }, 1).affects('/identity/oauth/token')).toBe(true);
  });
});
