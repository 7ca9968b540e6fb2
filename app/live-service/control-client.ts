// The commands' end of the control socket: one request to the live service of a folder, and its answer.
import { createConnection } from 'node:net';
import { AbortedError } from '../../common/errors.ts';
import { ControlError } from './control-errors.ts';
import {
  encodeMessage,
  LineCollector,
  MAX_ANSWER_BYTES,
  parseAnswer,
  type ControlAnswer,
  type ControlRequest,
} from './control-protocol.ts';
import { checkControlSocketDir } from './control-socket-path.ts';

export interface AskOptions {
  /** How long to wait for the whole answer (default 5 s); then `CONTROL_TIMEOUT`. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * Sends `request` and returns the service's answer, or undefined when no service runs (no socket, or
 * a socket file nobody listens on). `CONTROL_TIMEOUT` when it does not answer in time,
 * `CONTROL_BAD_ANSWER` for an answer that is not one, `ABORTED` when `signal` fires.
 */
export async function askService(
  socketPath: string,
  request: ControlRequest,
  options: AskOptions = {},
): Promise<ControlAnswer | undefined> {
  throwIfAborted(options.signal);
  // A socket in a folder of another user is never trusted; a missing folder means no service (ENOENT below).
  await checkControlSocketDir(socketPath);
  throwIfAborted(options.signal);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise<ControlAnswer | undefined>((resolve, reject) => {
    const collector = new LineCollector(MAX_ANSWER_BYTES, 'answer');
    const socket = createConnection(socketPath);
    let settled = false;
    let connected = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      outcome();
    };
    const fail = (error: Error): void => settle(() => reject(error));
    const take = (line: string | undefined): void => {
      if (line === undefined) {
        fail(new ControlError('CONTROL_BAD_ANSWER', 'The service closed the connection without answering.'));
        return;
      }
      try {
        const answer = parseAnswer(line);
        settle(() => resolve(answer));
      } catch (error) {
        fail(error as Error);
      }
    };
    const onAbort = (): void => fail(new AbortedError());
    const timer = setTimeout(
      () =>
        fail(
          new ControlError(
            'CONTROL_TIMEOUT',
            `The live sync service did not answer within ${timeoutMs / 1000} s (${socketPath}): it may be busy or stuck; its log is in the profile.`,
          ),
        ),
      timeoutMs,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });

    socket.once('connect', () => {
      connected = true;
      socket.write(encodeMessage(request));
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        const line = collector.push(chunk);
        if (line !== undefined) take(line);
      } catch (error) {
        fail(error as Error);
      }
    });
    socket.once('end', () => {
      try {
        take(collector.end());
      } catch (error) {
        fail(error as Error);
      }
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // Nothing listens: no socket file (never started, or closed cleanly), or one left by a crash.
      if (connected) {
        fail(
          new ControlError('CONTROL_BAD_ANSWER', `The connection to the service broke (${error.message}).`),
        );
      } else if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
        settle(() => resolve(undefined));
      } else {
        fail(
          new ControlError(
            'CONTROL_SOCKET_FAILED',
            `Cannot reach the live sync service at ${socketPath} (${error.message}).`,
            { cause: error },
          ),
        );
      }
    });
  });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new AbortedError();
}
