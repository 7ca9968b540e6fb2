// A plain node:http client of the headless UI host, as the window's bridge talks to it: the secret traded for the cookie, then `POST /api/<name>` calls, each timed.
import { Agent, request } from 'node:http';
import type { InvokeName, InvokeResult, PairView } from '../../common/contract.ts';

export interface TimedCall<T> {
  /** Send to the end of the answer, ms. */
  ms: number;
  result: InvokeResult<T>;
}

export interface UiHostClient {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  invoke<T = unknown>(name: InvokeName, body?: unknown): Promise<TimedCall<T>>;
  /** A file of the window as the host serves it (index.html with the bridge's tag for `/`). */
  get(path: string): Promise<Buffer>;
  close(): void;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Buffer;
}

function send(
  url: URL,
  agent: Agent,
  method: string,
  headers: Record<string, string | number>,
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, agent, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          text: all.toString('utf8'),
          body: all,
        });
      });
      answer.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Visits the printed address (`…/?secret=…`) once, as the browser does, and keeps the cookie it sets. */
export async function enterUiHost(openUrl: string): Promise<UiHostClient> {
  const url = new URL(openUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const entry = await send(url, agent, 'GET', {});
  const setCookie = entry.headers['set-cookie']?.[0];
  if (entry.status !== 303 || setCookie === undefined) {
    agent.destroy();
    throw new Error(`the host did not take the secret: ${entry.status} ${entry.text.slice(0, 200)}`);
  }
  const cookie = setCookie.split(';')[0] as string;
  const origin = url.origin;
  return {
    origin,
    invoke: async <T>(name: InvokeName, body: unknown = {}) => {
      const json = Buffer.from(JSON.stringify(body));
      const started = process.hrtime.bigint();
      const answer = await send(
        new URL(`/api/${name}`, origin),
        agent,
        'POST',
        { cookie, origin, 'content-type': 'application/json', 'content-length': json.length },
        json,
      );
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${answer.text.slice(0, 200)}`);
      return { ms, result: JSON.parse(answer.text) as InvokeResult<T> };
    },
    get: async (path) => {
      const answer = await send(new URL(path, origin), agent, 'GET', { cookie });
      if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status}`);
      return answer.body;
    },
    close: () => agent.destroy(),
  };
}

/**
 * Asks `pairs:list` every half second until its one pair is up to date after a pass that ended at or
 * after `sinceMs` (epoch ms; a kept index remembers older passes); returns that view.
 */
export async function waitForUpToDate(
  client: UiHostClient,
  timeoutMs: number,
  sinceMs = 0,
): Promise<PairView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { result } = await client.invoke<PairView[]>('pairs:list');
    if (!result.ok) throw new Error(`pairs:list: ${result.error.code} ${result.error.message}`);
    const [pair] = result.value;
    if (
      pair?.state === 'idle' &&
      pair.lastSyncAtMs !== null &&
      pair.lastSyncAtMs >= sinceMs &&
      pair.progress === null
    ) {
      return pair;
    }
    if (pair?.state === 'error' || pair?.state === 'held' || pair?.state === 'sign-in-needed') {
      throw new Error(`the pair is ${pair.state}: ${pair.detail ?? ''}`);
    }
    if (Date.now() > deadline)
      throw new Error(`the pair is not up to date after ${timeoutMs} ms: ${JSON.stringify(pair)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
