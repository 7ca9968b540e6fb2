// DeviceRoute: which of the device's addresses requests go to, and when it looks again (#33).
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, type ApiError } from '../../../../common/errors.ts';
import { DeviceRoute, type RouteState } from '../../../../app/auth/device-route.ts';

const HOME = 'http://192.168.1.20:4780';
const RELAY = 'https://relay.example/proxy/dev-1';
const addresses = [
  { via: 'home' as const, url: HOME },
  { via: 'relay' as const, url: RELAY },
];

/** A probe whose answers the test sets per address, counting what it was asked. */
function probes(initial: Record<string, boolean>): {
  answers: Record<string, boolean>;
  asked: string[];
  probe: (url: string) => Promise<ApiError | undefined>;
} {
  const answers = { ...initial };
  const asked: string[] = [];
  return {
    answers,
    asked,
    probe: (url) => {
      asked.push(url);
      return Promise.resolve(
        answers[url] === true ? undefined : new NetworkError('NETWORK', `${url} refused`),
      );
    },
  };
}

const routes: DeviceRoute[] = [];
function route(options: ConstructorParameters<typeof DeviceRoute>[0]): DeviceRoute {
  const made = new DeviceRoute(options);
  routes.push(made);
  return made;
}

afterEach(() => {
  for (const made of routes.splice(0)) made.stop();
});

describe('DeviceRoute', () => {
  it('moves a URL on any of the device addresses onto the one in use, and leaves others alone', async () => {
    const { probe } = probes({ [HOME]: false, [RELAY]: true });
    const made = route({ addresses, current: HOME, probe });
    const url = new URL(`${HOME}/sdk/v2/files/abc/content?offset=5`);
    expect((await made.resolve(url, undefined)).href).toBe(url.href);
    await made.check();
    expect((await made.resolve(url, undefined)).href).toBe(`${RELAY}/sdk/v2/files/abc/content?offset=5`);
    const elsewhere = new URL('https://config.example/config/v1/config');
    expect(await made.resolve(elsewhere, undefined)).toBe(elsewhere);
    // A host that merely starts like an address is not on it.
    const lookalike = new URL('http://192.168.1.20:47801/sdk/v2/files/root');
    expect(await made.resolve(lookalike, undefined)).toBe(lookalike);
  });

  it('prefers home whenever it answers, takes the relay otherwise, and is unreachable when neither does', async () => {
    const { answers, probe } = probes({ [HOME]: true, [RELAY]: true });
    const changes: RouteState[] = [];
    const made = route({ addresses, current: RELAY, probe });
    made.on('change', (state) => changes.push(state));
    await made.check();
    expect(made.state).toMatchObject({ via: 'home', url: HOME, reachable: true });
    answers[HOME] = false;
    answers[RELAY] = false;
    await made.check();
    expect(made.connection).toEqual({ via: 'home', reachable: false });
    answers[RELAY] = true;
    await made.check();
    expect(made.connection).toEqual({ via: 'relay', reachable: true });
    expect(changes.map((state) => [state.via, state.reachable])).toEqual([
      ['home', true],
      ['home', false],
      ['relay', true],
    ]);
  });

  it('takes a refused token as an answer: the address reaches the device, signing in is another matter', async () => {
    const made = route({
      addresses,
      current: RELAY,
      probe: (url) =>
        Promise.resolve(
          url === HOME
            ? ({ code: 'AUTH_REQUIRED', message: 'sign in' } as unknown as ApiError)
            : new NetworkError('NETWORK', 'refused'),
        ),
    });
    await made.check();
    expect(made.connection).toEqual({ via: 'home', reachable: true });
  });

  it('takes a probe that throws for an address that does not answer', async () => {
    const made = route({
      addresses,
      current: HOME,
      probe: (url) => (url === HOME ? Promise.reject(new Error('broken')) : Promise.resolve(undefined)),
    });
    await made.check();
    expect(made.connection).toEqual({ via: 'relay', reachable: true });
  });

  it('checks once for many failed requests at a time, and only for failures on the address in use', async () => {
    const { asked, probe } = probes({ [HOME]: false, [RELAY]: true });
    const made = route({ addresses, current: HOME, probe });
    made.unreachable(new URL(`${RELAY}/sdk/v2/files/root`));
    expect(asked).toEqual([]);
    for (let i = 0; i < 5; i += 1) made.unreachable(new URL(`${HOME}/sdk/v2/files/${i}`));
    const moved = await made.resolve(new URL(`${HOME}/sdk/v2/files/x`), undefined);
    expect(moved.href).toBe(`${RELAY}/sdk/v2/files/x`);
    expect(asked).toEqual([HOME, RELAY]);
  });

  it('saves the address that answered after a switch', async () => {
    const remembered: string[] = [];
    const { probe } = probes({ [HOME]: false, [RELAY]: true });
    const made = route({
      addresses,
      current: HOME,
      probe,
      remember: (address) => remembered.push(address.url),
    });
    await made.check();
    await made.check();
    expect(remembered).toEqual([RELAY]);
  });

  it('asks home again on its own while on the relay, and stops asking once home', async () => {
    const { answers, asked, probe } = probes({ [HOME]: false, [RELAY]: true });
    const made = route({ addresses, current: RELAY, probe, homeRecheckMs: 20 });
    const home = new Promise<RouteState>((resolve) => made.on('change', resolve));
    made.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(made.connection.via).toBe('relay');
    expect(asked.filter((url) => url === HOME).length).toBeGreaterThan(1);
    answers[HOME] = true;
    expect((await home).via).toBe('home');
    const askedAtHome = asked.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked.length).toBe(askedAtHome);
  });

  it('never switches with one address (or one pinned by hand) and learns the rest later', async () => {
    const { asked, probe } = probes({ [HOME]: false, [RELAY]: true });
    const made = route({ addresses: [], current: HOME, probe });
    expect(made.connection).toEqual({ via: 'pinned', reachable: true });
    made.unreachable(new URL(`${HOME}/sdk/v2/files/root`));
    await made.check();
    expect(asked).toEqual([]);
    made.learn(addresses);
    expect(made.connection.via).toBe('home');
    await made.check();
    expect(made.connection).toEqual({ via: 'relay', reachable: true });
  });
});
