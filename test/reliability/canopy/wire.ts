// A loopback HTTP relay between the engine and the device: where a soak run crashes, cuts or holds requests.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the relay does to the request it stops at, as if the engine's process died right there. */
export type WireCrash =
  /** The request never leaves: the process died before sending it (after any intent it wrote). */
  | 'before-request'
  /** The device carried the request out; the process died before it read the answer. */
  | 'after-answer'
  /** Half of the request's body reached the device, or half of the answer reached the engine. */
  | 'mid-body';

export interface WireRequest {
  /** 1 for the first request through the relay since it was armed, and so on. */
  number: number;
  method: string;
  url: string;
  /** An upload or a download (a file's content), the requests that last. */
  transfer: boolean;
}

export interface WireHooks {
  /** Stop the process at request `at` (counted from arming) in the given way. */
  crash?: { at: number; how: WireCrash };
  /** Called once the crash happened: the harness kills the rest of the engine (index, signal). */
  onCrash?: () => void;
  /**
   * Each awaited while its request is held: before it goes on (`before`) or after the device answered
   * and before the engine hears (`in-flight`). The harness makes its changes here.
   */
  holds?: WireHold[];
}

export interface WireHold {
  at: number;
  where: 'before' | 'in-flight' | 'transfer';
  run: () => Promise<void>;
}

/**
 * Watches request bodies on their way to the device (issue 26's uploads that change while sent).
 * `onChunk` sees each chunk of a body until it returns a promise: the relay then reads that body no
 * further until it settles, so the sender's reads stall behind full socket buffers meanwhile.
 */
export interface UploadTap {
  onChunk: (request: { method: string; url: string }, chunk: Buffer) => Promise<void> | undefined;
  /** The device's answer to each request with a body, once the device has carried it out. */
  onAnswer?: (request: { method: string; url: string }, status: number, body: Buffer) => void;
}

/** A relay to the device at `target` (switchable: the same device with or without its faults). */
export class WireRelay {
  #server: Server | undefined;
  #target: URL;
  #count = 0;
  #transfers = 0;
  #hooks: WireHooks = {};
  #crashed = false;
  readonly #sockets = new Set<Socket>();
  /** Requests forwarded to the device and not answered yet. */
  #atDevice = 0;
  #onIdle: (() => void)[] = [];
  /** While a hold runs, no request goes to the device: set, requests wait for it. */
  #gate: Promise<void> | undefined;
  /** Every request seen, `METHOD /path`. */
  readonly seen: string[] = [];
  #tap: UploadTap | undefined;

  constructor(target: string) {
    this.#target = new URL(target);
  }

  async listen(): Promise<string> {
    const server = createServer((incoming, outgoing) => {
      // A body the engine cut short (it stopped an upload whose file changed) is not forwarded.
      this.#relay(incoming, outgoing).catch(() => incoming.socket.destroy());
    });
    server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.#server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Sends what comes next to `target` (same paths). */
  retarget(target: string): void {
    this.#target = new URL(target);
  }

  /** New hooks, counting requests from 1 again; the relay works again after a crash. */
  arm(hooks: WireHooks): void {
    this.#hooks = hooks;
    this.#count = 0;
    this.#transfers = 0;
    this.#crashed = false;
  }

  /** Watches every request body from now on (kept across `arm`). */
  tapUploads(tap: UploadTap): void {
    this.#tap = tap;
  }

  /** Holds one request of the armed count for `hold.run` (changes made while it waits). */
  addHold(hold: WireHold): void {
    this.#hooks = { ...this.#hooks, holds: [...(this.#hooks.holds ?? []), hold] };
  }

  get crashed(): boolean {
    return this.#crashed;
  }

  /** The crash happened elsewhere (inside an index transaction): refuse every request from now on. */
  markCrashed(): void {
    if (this.#crashed) return;
    this.#crashed = true;
    this.#hooks.onCrash?.();
  }

  /** Resolves when every request sent to the device has its answer (a dead process's too). */
  async settled(): Promise<void> {
    while (this.#atDevice > 0) await new Promise<void>((resolve) => this.#onIdle.push(resolve));
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  async #relay(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    // A dead process sends nothing: whatever its leftover promises try is cut off.
    if (this.#crashed) return void incoming.socket.destroy();
    this.#count += 1;
    const number = this.#count;
    const method = incoming.method ?? 'GET';
    const url = incoming.url ?? '/';
    const transfer = url.includes('/content') || (method === 'POST' && url.split('?')[0] === '/sdk/v2/files');
    this.seen.push(`${method} ${url.split('?')[0]}`);
    if (transfer) this.#transfers += 1;
    const transferNumber = transfer ? this.#transfers : 0;
    const { crash, holds = [] } = this.#hooks;
    const crashHere = crash !== undefined && crash.at === number ? crash.how : undefined;
    if (crashHere === 'before-request') return this.#die(incoming);
    for (const hold of holds)
      if (hold.at === number && hold.where === 'before') await this.exclusive(hold.run);
    const tap = method === 'PUT' || method === 'POST' ? this.#tap : undefined;
    const body = await readBody(
      incoming,
      tap === undefined ? undefined : (chunk) => tap.onChunk({ method, url }, chunk),
    );
    while (this.#gate !== undefined) await this.#gate;
    if (this.#crashed) return void incoming.socket.destroy();
    const cutUpload = crashHere === 'mid-body' && body.length > 1;
    let answer: { status: number; headers: IncomingMessage['headers']; body: Buffer };
    try {
      answer = await this.#forward(
        method,
        url,
        incoming.headers,
        cutUpload ? body.subarray(0, body.length >> 1) : body,
        cutUpload,
      );
    } catch {
      if (cutUpload) return this.#die(incoming);
      return void incoming.socket.destroy();
    }
    tap?.onAnswer?.({ method, url }, answer.status, answer.body);
    if (crashHere === 'after-answer') return this.#die(incoming);
    // `transfer`: the at-th upload or download, its content with the device and its answer not back yet.
    for (const hold of holds) {
      const heldHere =
        hold.where === 'transfer'
          ? hold.at === transferNumber
          : hold.where === 'in-flight' && hold.at === number;
      if (heldHere) await this.exclusive(hold.run);
    }
    if (this.#crashed) return void incoming.socket.destroy();
    if (crashHere === 'mid-body') {
      // Half an answer: the headers and some bytes, then the connection ends with the process.
      outgoing.writeHead(answer.status, answer.headers);
      outgoing.write(answer.body.subarray(0, answer.body.length >> 1));
      return this.#die(incoming);
    }
    outgoing.writeHead(answer.status, answer.headers);
    outgoing.end(answer.body);
  }

  /**
   * Runs the harness's changes with the device to themselves: after every request already sent has
   * its answer, and before any other goes. A remote change reads what it removes and then makes it,
   * and the engine must not write in between (the other client would overwrite a version it never
   * saw, a lost update that would be that client's, not the engine's: soak seed 1454).
   */
  async exclusive(run: () => Promise<void>): Promise<void> {
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    while (this.#gate !== undefined) await this.#gate;
    this.#gate = gate;
    try {
      await this.settled();
      await run();
    } finally {
      this.#gate = undefined;
      open();
    }
  }

  #die(incoming: IncomingMessage): void {
    this.markCrashed();
    incoming.socket.destroy();
  }

  /** One request to the device; `cut`: its body ends early and the upload is aborted (a torn upload). */
  #forward(
    method: string,
    url: string,
    headers: IncomingMessage['headers'],
    body: Buffer,
    cut: boolean,
  ): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
    this.#atDevice += 1;
    const done = (): void => {
      this.#atDevice -= 1;
      if (this.#atDevice === 0) for (const resolve of this.#onIdle.splice(0)) resolve();
    };
    const answer = new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>(
      (resolve, reject) => {
        const target = new URL(url, this.#target);
        const upstream = httpRequest(
          target,
          { method, headers: { ...headers, host: target.host }, agent: false },
          (response) => {
            readBody(response).then(
              (answer) =>
                resolve({ status: response.statusCode ?? 502, headers: response.headers, body: answer }),
              reject,
            );
          },
        );
        upstream.on('error', reject);
        if (cut) {
          upstream.write(body, () => {
            // Let the device take in the first half before the connection breaks.
            setTimeout(() => upstream.destroy(new Error('cut')), 5);
          });
          return;
        }
        upstream.end(body);
      },
    );
    return answer.finally(done);
  }
}

/** The whole body; `onChunk` sees chunks until it returns a promise, and reading waits for that. */
function readBody(
  stream: IncomingMessage,
  onChunk?: (chunk: Buffer) => Promise<void> | undefined,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let watching = onChunk !== undefined;
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (!watching) return;
      const waiting = onChunk?.(chunk);
      if (waiting === undefined) return;
      watching = false;
      stream.pause();
      waiting.then(() => stream.resume(), reject);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
    stream.on('aborted', () => reject(new Error('aborted')));
  });
}
