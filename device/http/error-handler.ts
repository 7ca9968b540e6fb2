// Turns every error of a group of routes into its JSON error body, so bad input never becomes a 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/** Builds the error body of one service: the device's `{label, message}`, the cloud's wrapped form... */
export type ErrorBodyFormat = (label: string, message: string) => unknown;

export const deviceErrorBody: ErrorBodyFormat = (label, message) => ({ label, message });
export const wrappedErrorBody: ErrorBodyFormat = (label, message) => ({
  data: null,
  error: { label, message },
});

const labelForStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  411: 'LENGTH_REQUIRED',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
};

/** Status, label and message for any error thrown while handling a request. */
export function describeError(
  error: unknown,
): { status: number; label: string; message: string } | undefined {
  if (error instanceof HttpError) return { status: error.status, label: error.label, message: error.message };
  const fastifyError = error as Partial<FastifyError> | null;
  const status = fastifyError?.statusCode;
  // Fastify's own 4xx errors (bad JSON, body too large, unsupported media type...) keep their status.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const label =
      fastifyError?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError?.name === 'SyntaxError'
        ? 'INVALID_JSON'
        : (labelForStatus[status] ?? 'BAD_REQUEST');
    return { status, label, message: fastifyError?.message ?? 'The request is not valid.' };
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  // A client that went away mid-body is not a device failure; nobody will read this answer anyway.
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ABORT_ERR') {
    return {
      status: 400,
      label: 'REQUEST_ABORTED',
      message: 'The request ended before its body was complete.',
    };
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return {
      status: 507,
      label: 'INSUFFICIENT_STORAGE',
      message: 'The device is out of space: free some and retry.',
    };
  }
  return undefined;
}

/** Installs the error and not-found handlers of one encapsulated group of routes. */
export function installErrorHandling(app: FastifyInstance, format: ErrorBodyFormat): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const described = describeError(error);
    if (described) {
      if (error instanceof HttpError) void reply.headers(error.headers);
      // A write refused half way leaves the rest of its body on the wire: the connection cannot carry
      // another request, so the client is told not to try.
      if (described.status === 507 && !request.raw.complete) void reply.header('connection', 'close');
      return reply.code(described.status).send(format(described.label, described.message));
    }
    // Anything else is a bug of the device; the client gets no internals.
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(format('INTERNAL_ERROR', 'The device failed to handle this request.'));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(format('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
