// The live-sync baselines: a plain node:http client that sends bare PATCH requests (a rename or a move) and times each.
//
// One keep-alive connection per request in flight, no retries, no If-Match, nothing checked but the
// status (device-api.md §3: 204 and a new ETag).
import { Agent, request } from 'node:http';

export interface PlainPatch {
  id: string;
  body: { name?: string; parentID?: string };
}

export class PlainPatcher {
  readonly #base: string;
  readonly #token: string;
  readonly #agent: Agent;

  constructor(base: string, token: string, connections = 1) {
    this.#base = base;
    this.#token = token;
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  /** Sends one PATCH and resolves with its round trip in ms (send to the end of the answer). */
  patch({ id, body }: PlainPatch): Promise<number> {
    const json = Buffer.from(JSON.stringify(body));
    const started = process.hrtime.bigint();
    return new Promise((resolve, reject) => {
      const outgoing = request(
        new URL(`/sdk/v2/files/${encodeURIComponent(id)}`, this.#base),
        {
          method: 'PATCH',
          agent: this.#agent,
          headers: {
            authorization: `Bearer ${this.#token}`,
            'content-type': 'application/json',
            'content-length': json.length,
          },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            if (answer.statusCode !== 204) {
              const text = Buffer.concat(chunks).toString('utf8');
              reject(new Error(`PATCH ${id}: ${String(answer.statusCode)} ${text}`));
              return;
            }
            resolve(Number(process.hrtime.bigint() - started) / 1e6);
          });
          answer.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(json);
    });
  }

  /** Sends every patch with at most `inFlight` at once; resolves with the wall time in ms. */
  async patchAll(patches: readonly PlainPatch[], inFlight = 1): Promise<number> {
    const started = process.hrtime.bigint();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < patches.length) {
        const patch = patches[next] as PlainPatch;
        next += 1;
        await this.patch(patch);
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, patches.length) }, worker));
    return Number(process.hrtime.bigint() - started) / 1e6;
  }

  close(): void {
    this.#agent.destroy();
  }
}
