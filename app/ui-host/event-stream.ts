// The contract's events as server-sent events: one stream per connected page, each its own subscription.
import type { ServerResponse } from 'node:http';
import type { ContractService, EventListener } from '../ui/dispatch.ts';

export const DEFAULT_HEARTBEAT_MS = 25_000;

/**
 * A client that reads nothing while events keep coming would make the host buffer them without end;
 * past this much its stream is ended (EventSource reconnects, and the page asks again).
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface EventStreamsOptions {
  service: ContractService;
  log: (line: string) => void;
  /**
   * A comment line this often keeps idle streams from being cut by anything that drops silent
   * connections, and lets the host notice a client that went away without closing.
   */
  heartbeatMs?: number;
}

export class EventStreams {
  readonly #options: EventStreamsOptions;
  readonly #open = new Set<ServerResponse>();

  constructor(options: EventStreamsOptions) {
    this.#options = options;
  }

  /** Starts a stream on `response` (already authorized); it lasts until the client leaves or `endAll`. */
  open(response: ServerResponse): void {
    const { service, log } = this.#options;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      // No compression or buffering by anything between: each event must go out as it happens.
      'x-accel-buffering': 'no',
    });
    // Sends the headers now, so the page's EventSource is open before the first event.
    response.write(': mch-sync events\n\n');
    this.#open.add(response);
    const send = (text: string): void => {
      if (response.writableEnded || response.destroyed) return;
      if (response.writableLength > MAX_BUFFERED_BYTES) {
        log('ui host: an event stream fell too far behind and was ended; the page will reconnect');
        response.end();
        return;
      }
      response.write(text);
    };
    const listener: EventListener = (name, payload) => {
      let data: string;
      try {
        data = JSON.stringify(payload);
      } catch (error) {
        log(`ui host: event ${name} could not be sent: ${String(error)}`);
        return;
      }
      // JSON.stringify escapes line breaks, so the payload is one `data:` line.
      send(`event: ${name}\ndata: ${data}\n\n`);
    };
    const unsubscribe = service.onEvent(listener);
    const heartbeat = setInterval(
      () => send(': heartbeat\n\n'),
      this.#options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    );
    heartbeat.unref();
    response.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      this.#open.delete(response);
    });
  }

  /** Ends every open stream (the host is stopping); the pages see the stream end. */
  endAll(): void {
    for (const response of this.#open) response.end();
  }

  get size(): number {
    return this.#open.size;
  }
}
