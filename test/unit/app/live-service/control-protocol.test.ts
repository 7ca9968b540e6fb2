// The control protocol: requests and answers it accepts, and hostile or broken input refused with a typed error.
import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../../common/sync-status.ts';
import { ControlError } from '../../../../app/live-service/control-errors.ts';
import {
  encodeMessage,
  errorAnswer,
  LineCollector,
  MAX_REQUEST_BYTES,
  parseAnswer,
  parseRequest,
} from '../../../../app/live-service/control-protocol.ts';
import { MchError } from '../../../../common/errors.ts';

const status: SyncStatus = {
  state: 'syncing',
  detail: null,
  localRoot: '/home/alice/Photos',
  remoteFolder: '/Photos',
  progress: {
    itemsDone: 1,
    itemsTotal: 3,
    bytesDone: 10,
    bytesTotal: 30,
    transfers: [{ path: 'a.jpg', direction: 'up', bytesDone: 10, bytesTotal: 20 }],
  },
  lastSyncAtMs: 1_790_000_000_000,
  activity: [{ atMs: 1_790_000_000_000, action: 'uploaded', path: 'b.jpg' }],
  issues: [
    { kind: 'skipped', path: 'link', code: 'SYMLINK', message: 'A symbolic link is not synced.' },
    // Each item's class crosses the socket: `status --json` of a running service carries it.
    { kind: 'failed', path: 'big.iso', code: 'DISK_FULL', message: 'The disk is full.', remedy: 'needs-you' },
    {
      kind: 'failed',
      path: 'Ab',
      code: 'NAME_CLASH',
      message: 'Two names.',
      remedy: 'never-as-is',
      side: 'local',
    },
  ],
  pid: 4242,
};

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return error instanceof ControlError ? error.code : `not a ControlError: ${String(error)}`;
  }
  return undefined;
}

describe('parseRequest', () => {
  it.each(['status', 'pause', 'resume', 'sync-now'])('accepts {"op": "%s"}', (op) => {
    expect(parseRequest(JSON.stringify({ op }))).toEqual({ op });
  });

  it('drops unknown fields, so an older service understands a newer client', () => {
    expect(parseRequest('{"op":"pause","reason":"meeting"}')).toEqual({ op: 'pause' });
  });

  it.each([
    ['not JSON', 'status'],
    ['an unknown op', '{"op":"delete-everything"}'],
    ['an op of another type', '{"op":1}'],
    ['no op', '{}'],
    ['null', 'null'],
    ['an array', '[{"op":"status"}]'],
    ['a string', '"status"'],
    ['an empty line', ''],
    ['a truncated object', '{"op":"stat'],
    ['deep nesting', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
  ])('refuses %s with CONTROL_BAD_REQUEST', (_what, line) => {
    expect(codeOf(() => parseRequest(line))).toBe('CONTROL_BAD_REQUEST');
  });

  it('does not let __proto__ in a request reach any prototype', () => {
    const request = parseRequest('{"op":"status","__proto__":{"polluted":true},"constructor":{"x":1}}');
    expect(request).toEqual({ op: 'status' });
    expect(Object.getPrototypeOf(request)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('parseAnswer', () => {
  it('reads a status answer and an error answer back as sent', () => {
    expect(parseAnswer(encodeMessage({ ok: true, status }).trimEnd())).toEqual({ ok: true, status });
    const refusal = { ok: false as const, error: { code: 'CONTROL_BAD_REQUEST', message: 'no' } };
    expect(parseAnswer(JSON.stringify(refusal))).toEqual(refusal);
  });

  it.each([
    ['not JSON', '<html>'],
    ['an unknown state', JSON.stringify({ ok: true, status: { ...status, state: 'sleeping' } })],
    ['a status without pid', JSON.stringify({ ok: true, status: { ...status, pid: undefined } })],
    [
      'negative progress',
      JSON.stringify({ ok: true, status: { ...status, progress: { ...status.progress, itemsDone: -1 } } }),
    ],
    ['ok true without status', '{"ok":true}'],
    ['an error without code', '{"ok":false,"error":{"message":"x"}}'],
  ])('refuses %s with CONTROL_BAD_ANSWER', (_what, line) => {
    expect(codeOf(() => parseAnswer(line))).toBe('CONTROL_BAD_ANSWER');
  });
});

describe('errorAnswer', () => {
  it('keeps the code of a project error and hides nothing else behind a generic code', () => {
    expect(errorAnswer(new MchError('SIGN_IN_REQUIRED', 'Sign-in needed', 'Run login.'))).toEqual({
      ok: false,
      error: { code: 'SIGN_IN_REQUIRED', message: 'Run login.' },
    });
    const generic = errorAnswer(new TypeError('x is undefined'));
    expect(generic).toEqual({
      ok: false,
      error: { code: 'CONTROL_HANDLER_FAILED', message: 'The service failed: x is undefined' },
    });
  });
});

describe('LineCollector', () => {
  it('returns the line once its newline arrives, whatever the chunks', () => {
    const collector = new LineCollector(100, 'request');
    expect(collector.push(Buffer.from('{"op":'))).toBeUndefined();
    expect(collector.push(Buffer.from('"status"}\n{"op":"pause"}\n'))).toBe('{"op":"status"}');
  });

  it('decodes a character split across chunks whole', () => {
    const bytes = Buffer.from('"é"\n');
    const collector = new LineCollector(100, 'request');
    expect(collector.push(bytes.subarray(0, 2))).toBeUndefined();
    expect(collector.push(bytes.subarray(2))).toBe('"é"');
  });

  it('refuses bytes that are not UTF-8', () => {
    const collector = new LineCollector(100, 'request');
    expect(codeOf(() => collector.push(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])))).toBe(
      'CONTROL_BAD_REQUEST',
    );
  });

  it('refuses a request past the limit as soon as the limit is passed, without a newline', () => {
    const collector = new LineCollector(MAX_REQUEST_BYTES, 'request');
    expect(collector.push(Buffer.alloc(MAX_REQUEST_BYTES, 0x20))).toBeUndefined();
    expect(codeOf(() => collector.push(Buffer.from(' ')))).toBe('CONTROL_REQUEST_TOO_LARGE');
  });

  it('refuses an oversized answer as a bad answer', () => {
    const collector = new LineCollector(10, 'answer');
    expect(codeOf(() => collector.push(Buffer.alloc(11, 0x20)))).toBe('CONTROL_BAD_ANSWER');
  });

  it('takes what arrived as the line when the stream ends without a newline, and nothing as nothing', () => {
    const collector = new LineCollector(100, 'request');
    collector.push(Buffer.from('{"op":"status"}'));
    expect(collector.end()).toBe('{"op":"status"}');
    expect(new LineCollector(100, 'request').end()).toBeUndefined();
  });
});
