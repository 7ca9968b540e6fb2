// Holds a client's upload bodies at a chosen byte so a test can change the file mid-read, and records every request.
import { Readable } from 'node:stream';
import type { RequestSpec, Transport } from '../../app/api/http/transport.ts';

/** Where an upload's body stops, and what happens while it is stopped. */
export interface PausePoint {
  /** Body bytes let through before the pause (the multipart metadata part counts). */
  afterBytes: number;
  /** Runs while the body is held; the body goes on once it resolves. */
  then: () => Promise<void> | void;
}

export interface UploadTap {
  /** `METHOD /path?query` of every request the client made (each once, whatever its attempts). */
  requests: string[];
  /** Bodies that reached their pause point. */
  paused: number;
}

/**
 * Wraps `transport.request` so streamed bodies that `pauseAt` picks stop after `afterBytes` bytes until
 * `then()` resolves. The source stream reads ahead of the pause only as far as its buffers go (a few
 * chunks of 64 KiB), so a file much larger than that is changed in the middle of its read.
 */
export function tapUploads(
  transport: Transport,
  pauseAt: (spec: RequestSpec) => PausePoint | undefined = () => undefined,
): UploadTap {
  const tap: UploadTap = { requests: [], paused: 0 };
  const send = transport.request.bind(transport);
  transport.request = async (spec) => {
    tap.requests.push(`${spec.method} ${spec.url.pathname}${spec.url.search}`);
    const point = pauseAt(spec);
    const body = spec.body;
    if (point === undefined || typeof body !== 'function') return send(spec);
    const held = (): Readable =>
      Readable.from(
        heldAt(body(), point, () => (tap.paused += 1)),
        { objectMode: false },
      );
    return send({ ...spec, body: held });
  };
  return tap;
}

async function* heldAt(source: Readable, point: PausePoint, onPause: () => void): AsyncGenerator<Buffer> {
  let passed = 0;
  let fired = false;
  for await (const chunk of source) {
    const buffer = chunk as Buffer;
    if (!fired && passed + buffer.length > point.afterBytes) {
      const split = point.afterBytes - passed;
      if (split > 0) yield buffer.subarray(0, split);
      fired = true;
      onPause();
      await point.then();
      yield buffer.subarray(split);
    } else {
      yield buffer;
    }
    passed += buffer.length;
  }
}
