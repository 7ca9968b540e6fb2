// Statuses and got errors become typed errors with stable codes; nothing else reads a status number.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../common/errors.ts';
import {
  classifyStatus,
  errorBodyText,
  errorFromFailure,
  errorFromStatus,
  retryAfterMs,
} from '../../../../app/api/http/http-errors.ts';

const context = { what: 'read item x', details: { correlationId: 'c-1', request: 'GET http://h/p' } };
const body = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('classifyStatus', () => {
  it('names what each status means to a caller', () => {
    expect([200, 201, 202, 204, 206, 304, 401, 416, 429, 503, 404, 302].map(classifyStatus)).toEqual([
      'ok',
      'created',
      'accepted',
      'no-content',
      'partial',
      'not-modified',
      'unauthorized',
      'range-not-satisfiable',
      'throttled',
      'unavailable',
      'failed',
      'failed',
    ]);
  });

  it('a full device (507) and a method it lacks (501) are not worth asking again', () => {
    expect([501, 507, 500, 502].map(classifyStatus)).toEqual([
      'failed',
      'failed',
      'unavailable',
      'unavailable',
    ]);
  });
});

describe('errorFromStatus', () => {
  it.each([
    [401, {}, 'AUTH_REQUIRED'],
    [
      403,
      { error: 'invalid_grant', error_description: 'Wrong email or password.' },
      'AUTH_INVALID_CREDENTIALS',
    ],
    [400, { error: 'invalid_grant' }, 'AUTH_REQUIRED'],
    [401, { error: 'invalid_client' }, 'BAD_REQUEST'],
    [403, { label: 'INSUFFICIENT_SCOPE' }, 'FORBIDDEN'],
    [404, { label: 'FILE_NOT_FOUND' }, 'NOT_FOUND'],
    [409, { label: 'NAME_CONFLICT' }, 'CONFLICT'],
    [412, { label: 'PRECONDITION_FAILED' }, 'PRECONDITION_FAILED'],
    [405, {}, 'NOT_SUPPORTED'],
    [429, {}, 'RATE_LIMITED'],
    [503, {}, 'SERVER_ERROR'],
    [413, {}, 'BAD_REQUEST'],
    [302, {}, 'UNEXPECTED_STATUS'],
  ])('maps %i %j to %s', (status, answer, code) => {
    const error = errorFromStatus(status, body(answer), context);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe(code);
    expect(error.correlationId).toBe('c-1');
  });

  it('keeps the status private but in the debug line', () => {
    const error = errorFromStatus(409, body({ label: 'NAME_CONFLICT', message: 'taken' }), context);
    expect(Object.keys(error)).not.toContain('httpStatus');
    expect(error.describe()).toContain('409');
    expect(error.describe()).toContain('c-1');
    expect(error.message).toContain('taken');
  });
});

describe('errorBodyText', () => {
  it('reads the three error formats and ignores anything else', () => {
    expect(errorBodyText(body({ label: 'A', message: 'a' }))).toEqual({ label: 'A', message: 'a' });
    expect(errorBodyText(body({ data: null, error: { label: 'B', message: 'b' } }))).toEqual({
      label: 'B',
      message: 'b',
    });
    expect(errorBodyText(body({ error: 'c', error_description: 'cc' }))).toEqual({
      label: 'c',
      message: 'cc',
    });
    expect(errorBodyText(Buffer.from('<html>'))).toEqual({});
    expect(errorBodyText(body([1, 2]))).toEqual({ label: undefined, message: undefined });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(
      10_000,
    );
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('errorFromFailure', () => {
  it('knows a refused connection sent nothing, so even a create may be sent again', () => {
    const failure = errorFromFailure(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), {
      ...context,
      idempotent: false,
    });
    expect(failure).toMatchObject({ notSent: true, error: { code: 'NETWORK' } });
  });

  it('reports a reset of a request that is not safe to repeat as OUTCOME_UNKNOWN', () => {
    const failure = errorFromFailure(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), {
      ...context,
      idempotent: false,
    });
    expect(failure).toMatchObject({ notSent: false, error: { code: 'OUTCOME_UNKNOWN' } });
  });

  it('maps timeouts and aborts', () => {
    const timeout = Object.assign(new Error('late'), {
      name: 'TimeoutError',
      code: 'ETIMEDOUT',
      event: 'response',
    });
    expect(errorFromFailure(timeout, { ...context, idempotent: true }).error.code).toBe('TIMEOUT');
    const connectTimeout = Object.assign(new Error('late'), { code: 'ETIMEDOUT', event: 'connect' });
    expect(errorFromFailure(connectTimeout, { ...context, idempotent: false })).toMatchObject({
      notSent: true,
      error: { code: 'TIMEOUT' },
    });
    const abort = Object.assign(new Error('stop'), { name: 'AbortError', code: 'ERR_ABORTED' });
    expect(errorFromFailure(abort, { ...context, idempotent: false }).error.code).toBe('ABORTED');
  });
});
