// A call's failure in the window's words: the connection layer's words (ECONNREFUSED, "will try again later") only behind the details, an unexpected fault naming the log, a bad request's schema text in its details.
import { describe, expect, it } from 'vitest';
import { AuthError, NetworkError } from '../../../../common/errors.ts';
import { dispatch, type ContractHandlers } from '../../../../app/ui/dispatch.ts';
import { openFailedError, uiErrorOf, windowErrorOf } from '../../../../app/ui/ui-errors.ts';

const LOG = '/home/ann/.config/mch-sync/logs/window.log';
const refused = new NetworkError(
  'NETWORK',
  'Could not read the configuration: connect ECONNREFUSED 127.0.0.1:9; will try again later.',
  {
    request: 'GET http://127.0.0.1:9/config/v1/config',
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
  },
);

describe('windowErrorOf', () => {
  it('says where sign-in found nothing, with the connection words only in the details', () => {
    const error = uiErrorOf(
      windowErrorOf(refused, {
        call: 'account:signInPassword',
        configUrl: 'http://127.0.0.1:9/config/v1/config',
        logFile: LOG,
      }),
    );
    expect(error).toEqual({
      code: 'SIGN_IN_UNREACHABLE',
      title: 'Could not reach the sign-in service',
      message:
        'Nothing answered at 127.0.0.1:9. Check the configuration URL under Advanced, and that the device is on and on this network, then sign in again.',
      // What the connection layer knew; "will try again later" was for a service that retries.
      details: 'NETWORK: GET http://127.0.0.1:9/config/v1/config: connect ECONNREFUSED 127.0.0.1:9',
    });
  });

  it('tells a device call that failed to try again, and keeps errors that already speak to people', () => {
    expect(uiErrorOf(windowErrorOf(refused, { call: 'shares:list', logFile: LOG }))).toMatchObject({
      code: 'DEVICE_UNREACHABLE',
      message: 'The device did not answer. Check that it is on and on this network, then try again.',
    });
    const wrong = new AuthError('AUTH_INVALID_CREDENTIALS', 'The user name or password is wrong.');
    expect(windowErrorOf(wrong, { call: 'account:signInPassword', logFile: LOG })).toBe(wrong);
  });

  it('names the log for a fault of its own, never its stack', () => {
    const error = uiErrorOf(
      windowErrorOf(new TypeError('x is undefined'), { call: 'pairs:list', logFile: LOG }),
    );
    expect(error).toMatchObject({ code: 'INTERNAL', title: 'Something went wrong', logFile: LOG });
    expect(error.details).toBe('pairs:list: x is undefined');
    expect(error.message).not.toContain('pairs:list');
  });

  it('says what to open by hand when nothing could open an item', () => {
    const error = uiErrorOf(
      openFailedError('/home/ann/Work', 'item', new Error('there is no graphical session')),
    );
    expect(error).toEqual({
      code: 'OPEN_FAILED',
      title: 'Could not open it',
      message: 'No application opened /home/ann/Work. Open it from your file manager.',
      details: "The system's opener failed: there is no graphical session.",
    });
  });
});

describe('dispatch', () => {
  it('puts the schema text of a bad request in the details, and carries details and the log file', async () => {
    const handlers = {
      'pairs:list': () =>
        Promise.reject(windowErrorOf(new Error('boom'), { call: 'pairs:list', logFile: LOG })),
    } as unknown as ContractHandlers;
    const bad = await dispatch(handlers, 'pairs:list', { extra: 1 });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error.message).toBe(
      'The window asked for something mch-sync cannot read. Reload the window and try again.',
    );
    expect(bad.error.details).toMatch(/^The request of pairs:list is not valid: /);
    const failed = await dispatch(handlers, 'pairs:list', {});
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'INTERNAL', logFile: LOG, details: 'pairs:list: boom' },
    });
  });
});
