// The state socket's lines: requests checked, a line too long skipped to its newline, text that is not UTF-8 refused.
import { describe, expect, it } from 'vitest';
import { parseStateRequest, StateLineReader } from '../../../../app/file-state/state-protocol.ts';
import type { StateError } from '../../../../app/file-state/state-errors.ts';

describe('StateLineReader', () => {
  it('cuts lines across chunks, skips one too long up to its newline, and reads on', () => {
    const reader = new StateLineReader(10);
    expect(reader.push(Buffer.from('{"a"'))).toEqual([]);
    expect(reader.push(Buffer.from(':1}\n{"b":2}\n'))).toEqual(['{"a":1}', '{"b":2}']);
    const tooLong = reader.push(Buffer.from('0123456789ABC'));
    expect(tooLong).toHaveLength(1);
    expect((tooLong[0] as StateError).code).toBe('STATE_TOO_LARGE');
    expect(reader.push(Buffer.from('more of it\nok\n'))).toEqual(['ok']);
    const bad = reader.push(Buffer.from([0xff, 0xfe, 0x0a]));
    expect((bad[0] as StateError).code).toBe('STATE_BAD_REQUEST');
  });
});

describe('parseStateRequest', () => {
  it('reads each request and refuses what is not one, keeping the id when there is one', () => {
    expect(parseStateRequest('{"id":1,"op":"state","paths":["/a"]}')).toEqual({
      request: { id: 1, op: 'state', paths: ['/a'] },
    });
    expect(parseStateRequest('{"id":"x","op":"act","action":"pin","paths":["/a"]}')).toMatchObject({
      request: { action: 'pin' },
    });
    for (const [line, id] of [
      ['nope', null],
      ['{"id":2,"op":"state","paths":["relative"]}', 2],
      ['{"id":3,"op":"act","action":"format","paths":["/a"]}', 3],
      ['{"id":4,"op":"act","action":"pin","paths":[]}', 4],
      ['{"id":5,"op":"state","paths":["/a\\u0000b"]}', 5],
    ] as const) {
      const parsed = parseStateRequest(line);
      expect(parsed).toMatchObject({ id });
      expect('error' in parsed && parsed.error.code).toBe('STATE_BAD_REQUEST');
    }
    const many = parseStateRequest(
      JSON.stringify({ id: 6, op: 'state', paths: Array.from({ length: 10_001 }, () => '/') }),
    );
    expect('error' in many && many.error.code).toBe('STATE_TOO_LARGE');
  });
});
