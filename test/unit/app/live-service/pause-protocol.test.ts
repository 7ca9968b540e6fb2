// The control protocol's pause with an end, the metered op, and the pause a status carries (#33).
import { describe, expect, it } from 'vitest';
import { encodeMessage, parseAnswer, parseRequest } from '../../../../app/live-service/control-protocol.ts';
import type { SyncStatus } from '../../../../common/sync-status.ts';

const status: SyncStatus = {
  state: 'paused',
  detail: 'Paused until 14:30: changes on either side wait until then, or until you resume.',
  localRoot: '/home/ann/MyCloud',
  remoteFolder: '/MyCloud',
  progress: null,
  lastSyncAtMs: null,
  activity: [],
  issues: [],
  pid: 42,
  pause: { by: 'user', untilMs: 1_800_000_000_000 },
};

describe('pause requests', () => {
  it('reads a pause with and without its end, and the metered choice', () => {
    expect(parseRequest('{"op":"pause"}')).toEqual({ op: 'pause' });
    expect(parseRequest('{"op":"pause","until":1800000000000}')).toEqual({
      op: 'pause',
      until: 1_800_000_000_000,
    });
    expect(parseRequest('{"op":"metered","sync":true}')).toEqual({ op: 'metered', sync: true });
  });

  it('refuses an end that is not a time and a metered op without its choice', () => {
    for (const line of [
      '{"op":"pause","until":"1h"}',
      '{"op":"pause","until":-5}',
      '{"op":"pause","until":1.5}',
      '{"op":"metered"}',
      '{"op":"metered","sync":"yes"}',
    ]) {
      expect(() => parseRequest(line), line).toThrow(
        expect.objectContaining({ code: 'CONTROL_BAD_REQUEST' }),
      );
    }
  });

  it('keeps the pause of a status through the socket, and its absence', () => {
    const answer = parseAnswer(encodeMessage({ ok: true, status }).trim());
    expect(answer.ok && answer.status.pause).toEqual({ by: 'user', untilMs: 1_800_000_000_000 });
    const { pause: _pause, ...running } = status;
    const plain = parseAnswer(encodeMessage({ ok: true, status: { ...running, state: 'idle' } }).trim());
    expect(plain.ok && plain.status.pause).toBeUndefined();
    const metered = parseAnswer(
      encodeMessage({ ok: true, status: { ...status, pause: { by: 'metered', untilMs: null } } }).trim(),
    );
    expect(metered.ok && metered.status.pause).toEqual({ by: 'metered', untilMs: null });
  });
});
