// The rotating log: line format, rotation by size to .1...keep, private modes, and failures reported once, never thrown.
import {
  chmodSync,
  mkdirSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatLogLine, openRotatingLog, type RotatingLog } from '../../../../app/log/rotating-log.ts';

let dir: string;
const logs: RotatingLog[] = [];
const AT = Date.parse('2026-11-23T17:00:00.000Z');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mch-log-'));
});

afterEach(async () => {
  for (const log of logs.splice(0)) await log.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(
  options: { maxBytes?: number; keep?: number; onError?: (error: Error) => void } = {},
): RotatingLog {
  const log = openRotatingLog({ dir: join(dir, 'logs'), name: 'sync', now: () => AT, ...options });
  logs.push(log);
  return log;
}

function read(name: string): string {
  return readFileSync(join(dir, 'logs', name), 'utf8');
}

describe('formatLogLine', () => {
  it('writes time, level, message and path on one line', () => {
    expect(formatLogLine({ level: 'info', message: 'uploaded', path: 'a/b.txt' }, AT)).toBe(
      '2026-11-23T17:00:00.000Z INFO uploaded [a/b.txt]\n',
    );
    expect(formatLogLine({ level: 'warn', message: 'offline', atMs: AT + 1 }, 0)).toBe(
      '2026-11-23T17:00:00.001Z WARN offline\n',
    );
  });

  it('escapes control characters, so a file name cannot forge a second entry', () => {
    const line = formatLogLine(
      { level: 'info', message: 'a\nb', path: 'x\n2026-01-01T00:00:00.000Z ERROR fake' },
      AT,
    );
    expect(line.split('\n')).toHaveLength(2);
    expect(line).toContain('a\\u000ab [x\\u000a2026-01-01T00:00:00.000Z ERROR fake]');
  });
});

describe('openRotatingLog', () => {
  it('appends lines to <dir>/<name>.log, keeping what an earlier run wrote', async () => {
    const first = open();
    first.write({ level: 'info', message: 'one' });
    await first.close();
    first.write({ level: 'info', message: 'after close' });
    open().write({ level: 'error', message: 'two', path: 'p' });
    expect(read('sync.log')).toBe(
      '2026-11-23T17:00:00.000Z INFO one\n2026-11-23T17:00:00.000Z ERROR two [p]\n',
    );
  });

  it('rotates before a line would pass the limit, so no file is larger than it', () => {
    const line = formatLogLine({ level: 'info', message: 'x' }, AT); // 33 bytes
    const log = open({ maxBytes: line.length * 2 });
    for (let index = 0; index < 5; index++) log.write({ level: 'info', message: 'x' });
    expect(read('sync.log')).toBe(line);
    expect(read('sync.log.1')).toBe(line.repeat(2));
    expect(read('sync.log.2')).toBe(line.repeat(2));
  });

  it('keeps at most `keep` rotated files, the newest as .1', () => {
    const log = open({ maxBytes: 1, keep: 2 });
    for (const message of ['a', 'b', 'c', 'd']) log.write({ level: 'info', message });
    expect(readdirSync(join(dir, 'logs')).sort()).toEqual(['sync.log', 'sync.log.1', 'sync.log.2']);
    expect(read('sync.log')).toContain('INFO d');
    expect(read('sync.log.1')).toContain('INFO c');
    expect(read('sync.log.2')).toContain('INFO b');
  });

  it('keeps no old file with keep 0', () => {
    const log = open({ maxBytes: 1, keep: 0 });
    log.write({ level: 'info', message: 'a' });
    log.write({ level: 'info', message: 'b' });
    expect(readdirSync(join(dir, 'logs'))).toEqual(['sync.log']);
    expect(read('sync.log')).toContain('INFO b');
  });

  it.skipIf(process.platform === 'win32')('makes the folder 0700 and every file 0600', () => {
    const log = open({ maxBytes: 1 });
    log.write({ level: 'info', message: 'a' });
    log.write({ level: 'info', message: 'b' });
    expect(statSync(join(dir, 'logs')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'logs', 'sync.log')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'logs', 'sync.log.1')).mode & 0o777).toBe(0o600);
  });

  it.skipIf(process.platform === 'win32')(
    'narrows an existing log that was made wider back to 0600',
    async () => {
      const first = open();
      first.write({ level: 'info', message: 'a' });
      await first.close();
      chmodSync(join(dir, 'logs', 'sync.log'), 0o644);
      open().write({ level: 'info', message: 'b' });
      expect(statSync(join(dir, 'logs', 'sync.log')).mode & 0o777).toBe(0o600);
    },
  );

  it('never throws on a failed write: it reports once, drops lines, and recovers', () => {
    const errors: Error[] = [];
    // A file where the folder should be: every open fails.
    writeFileSync(join(dir, 'logs'), '');
    const log = open({ onError: (error) => errors.push(error) });
    expect(() => {
      log.write({ level: 'info', message: 'lost 1' });
      log.write({ level: 'info', message: 'lost 2' });
    }).not.toThrow();
    expect(errors).toHaveLength(1);
    rmSync(join(dir, 'logs'));
    log.write({ level: 'info', message: 'back' });
    expect(read('sync.log')).toBe('2026-11-23T17:00:00.000Z INFO back\n');
    expect(existsSync(join(dir, 'logs', 'sync.log.1'))).toBe(false);
  });

  it('keeps appending, and reports once, when rotation cannot rename', () => {
    const errors: Error[] = [];
    const log = open({ maxBytes: 1, keep: 1, onError: (error) => errors.push(error) });
    log.write({ level: 'info', message: 'a' });
    // A folder where the rotated file goes: the rename fails.
    mkdirSync(join(dir, 'logs', 'sync.log.1', 'inside'), { recursive: true });
    log.write({ level: 'info', message: 'b' });
    log.write({ level: 'info', message: 'c' });
    expect(errors).toHaveLength(1);
    expect(read('sync.log')).toMatch(/INFO a\n.*INFO b\n.*INFO c\n$/s);
  });

  it('refuses options that make no sense', () => {
    expect(() => openRotatingLog({ dir, name: 'x', maxBytes: 0 })).toThrow(RangeError);
    expect(() => openRotatingLog({ dir, name: 'x', keep: -1 })).toThrow(RangeError);
  });
});
