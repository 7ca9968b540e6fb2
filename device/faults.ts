// Fault injection for client tests: device-API requests fail with 503, lose their connection or wait.
import type { FastifyInstance } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { deviceErrorBody } from './http/error-handler.ts';

export interface FaultSpec {
  /** Probability that a request is answered 503 without being handled. */
  error: number;
  /** Probability that the connection is dropped before the request is handled. */
  reset: number;
  /** Probability that the request is handled but its answer is lost (the connection drops instead). */
  lost: number;
  /** Every affected request waits this many milliseconds (uniform in the range) first. */
  latency?: { min: number; max: number };
  /** `device`: only the device API (/sdk, /proxy); `all`: every route, configuration and identity too. */
  scope: 'device' | 'all';
}

export class FaultSpecError extends Error {}

function probability(key: string, value: string): number {
  const number = Number(value);
  if (value === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new FaultSpecError(`${key} must be a probability from 0 to 1, got "${value}".`);
  }
  return number;
}

/** Parses `error=0.05,reset=0.02,lost=0.01,latency=10-200,scope=all`. */
export function parseFaultSpec(text: string): FaultSpec {
  const spec: FaultSpec = { error: 0, reset: 0, lost: 0, scope: 'device' };
  for (const part of text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')) {
    const [key = '', value = ''] = part.split('=', 2);
    switch (key) {
      case 'error':
      case 'reset':
      case 'lost':
        spec[key] = probability(key, value);
        break;
      case 'latency': {
        const match = /^(\d+)(?:-(\d+))?$/.exec(value);
        const min = Number(match?.[1]);
        const max = Number(match?.[2] ?? match?.[1]);
        if (!match || min > max || max > 60_000) {
          throw new FaultSpecError(
            `latency takes milliseconds as N or MIN-MAX (at most 60000), got "${value}".`,
          );
        }
        spec.latency = { min, max };
        break;
      }
      case 'scope':
        if (value !== 'device' && value !== 'all') throw new FaultSpecError('scope must be device or all.');
        spec.scope = value;
        break;
      default:
        throw new FaultSpecError(`Unknown fault "${key}": use error, reset, lost, latency or scope.`);
    }
  }
  if (spec.error + spec.reset + spec.lost > 1) {
    throw new FaultSpecError('error + reset + lost must not exceed 1.');
  }
  return spec;
}

export function describeFaultSpec(spec: FaultSpec): string {
  const parts = [`error=${spec.error}`, `reset=${spec.reset}`, `lost=${spec.lost}`];
  if (spec.latency) parts.push(`latency=${spec.latency.min}-${spec.latency.max}`);
  parts.push(`scope=${spec.scope}`);
  return parts.join(',');
}

/** A small seeded generator (mulberry32): the same seed gives the same faults for the same requests. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export type FaultDecision = { kind: 'error' | 'reset' | 'lost' | 'none'; delayMs: number };

/** Draws the fate of each request in the order requests arrive. */
export class FaultInjector {
  readonly spec: FaultSpec;
  readonly #random: () => number;

  constructor(spec: FaultSpec, seed: number) {
    this.spec = spec;
    this.#random = seededRandom(seed);
  }

  affects(url: string): boolean {
    return this.spec.scope === 'all' || url.startsWith('/sdk/') || url.startsWith('/proxy/');
  }

  next(): FaultDecision {
    const { latency } = this.spec;
    // Two draws every time, whatever the outcome, so one decision never shifts the ones after it.
    const delayDraw = this.#random();
    const faultDraw = this.#random();
    const delayMs = latency ? Math.round(latency.min + delayDraw * (latency.max - latency.min)) : 0;
    const { error, reset, lost } = this.spec;
    if (faultDraw < error) return { kind: 'error', delayMs };
    if (faultDraw < error + reset) return { kind: 'reset', delayMs };
    if (faultDraw < error + reset + lost) return { kind: 'lost', delayMs };
    return { kind: 'none', delayMs };
  }
}

/** Installs the injector in front of every route it affects. */
export function installFaults(app: FastifyInstance, injector: FaultInjector): void {
  const lostRequests = new WeakSet<object>();
  app.addHook('onRequest', async (request, reply) => {
    if (!injector.affects(request.url)) return;
    const decision = injector.next();
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    switch (decision.kind) {
      case 'none':
        return;
      case 'error':
        request.log.info({ fault: 'error' }, 'injected 503');
        await reply
          .code(503)
          .header('retry-after', '1')
          .send(
            deviceErrorBody('SERVICE_UNAVAILABLE', 'Injected fault: the device is temporarily unavailable.'),
          );
        return;
      case 'reset':
        request.log.info({ fault: 'reset' }, 'injected connection reset');
        request.raw.socket.destroy();
        // Sending stops the request here (the handler never runs); the bytes go nowhere.
        await reply.code(503).send();
        return;
      case 'lost':
        lostRequests.add(request);
        return;
    }
  });
  // A lost answer: the request took effect, but the client never hears so (the hardest case for a client).
  app.addHook('onSend', async (request, _reply, payload) => {
    if (lostRequests.has(request)) {
      request.log.info({ fault: 'lost' }, 'injected lost answer');
      request.raw.socket.destroy();
    }
    return payload;
  });
}
