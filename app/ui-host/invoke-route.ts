// One contract call over HTTP: `POST /api/<name>` with a JSON body, answered with its InvokeResult.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UiError } from '../../common/contract.ts';
import { dispatch, type ContractHandlers } from '../ui/dispatch.ts';
import { sendContractError, sendJsonText } from './host-answers.ts';

/** Far above any request of the contract (the largest are a few thousand paths to share). */
export const MAX_BODY_BYTES = 1024 * 1024;

type BodyOutcome = { ok: true; value: unknown } | { ok: false; status: number; error: UiError };

/**
 * Statuses: 200 for every call that reached `dispatch`, whatever its outcome (the InvokeResult in the
 * body says; an unknown name or a request that does not match the contract included); 415 for a body
 * that is not `application/json`, 413 for one over 1 MiB, 400 for one that is not UTF-8 JSON, each with
 * a `CONTRACT_BAD_REQUEST` InvokeResult. The bridge reads the body either way.
 */
export async function answerInvoke(
  request: IncomingMessage,
  response: ServerResponse,
  handlers: ContractHandlers,
  name: string,
  log: (line: string) => void,
): Promise<void> {
  const body = await readJsonBody(request, name);
  if (!body.ok) {
    sendContractError(response, body.status, body.error);
    return;
  }
  const result = await dispatch(handlers, name, body.value, (error) => {
    log(
      `ui host: ${name} failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  });
  let text: string;
  try {
    text = JSON.stringify(result);
  } catch (error) {
    // A handler's answer that is not plain data (a BigInt, a cycle) is this project's bug.
    log(`ui host: the answer of ${name} is not JSON: ${String(error)}`);
    sendContractError(response, 200, {
      code: 'INTERNAL',
      title: 'Something went wrong',
      message: `${name} failed unexpectedly; the window's log (in the Logs folder Settings shows) has the details.`,
    });
    return;
  }
  sendJsonText(response, 200, text);
}

async function readJsonBody(request: IncomingMessage, name: string): Promise<BodyOutcome> {
  const refuse = (status: number, why: string): BodyOutcome => ({
    ok: false,
    status,
    error: { code: 'CONTRACT_BAD_REQUEST', title: 'Bad request', message: `The request of ${name} ${why}.` },
  });
  const type = (request.headers['content-type'] ?? '').split(';');
  const mediaType = type[0]?.trim().toLowerCase();
  const charset = type
    .slice(1)
    .map((parameter) => parameter.trim().toLowerCase())
    .find((parameter) => parameter.startsWith('charset='));
  if (mediaType !== 'application/json' || (charset !== undefined && charset !== 'charset=utf-8')) {
    await drain(request);
    return refuse(415, 'must be sent as application/json (UTF-8)');
  }
  // The rest of a body that is too large is read and dropped rather than left unread: closing the
  // connection under a client still sending can cost it the answer (a reset), and only the page that
  // holds the cookie gets this far.
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    }
  } catch {
    // The client went away mid-body; there is nobody to answer, and nothing to call.
    return refuse(400, 'did not arrive whole');
  }
  if (tooLarge) return refuse(413, `is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return refuse(400, 'is not valid UTF-8');
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return refuse(400, 'is not valid JSON');
  }
}

async function drain(request: IncomingMessage): Promise<void> {
  try {
    for await (const _ of request as AsyncIterable<Buffer>) {
      // dropped
    }
  } catch {
    // The client went away; the answer will find nobody either.
  }
}
