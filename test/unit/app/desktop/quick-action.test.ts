// The macOS Quick Action switch: the shipped workflow copied to ~/Library/Services and removed, idempotently, never replacing someone else's workflow of the same name.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QUICK_ACTION_NAME, QuickActionSwitch } from '../../../../app/desktop/quick-action.ts';

const SHIPPED = join(import.meta.dirname, '..', '..', '..', '..', 'build', 'macos', QUICK_ACTION_NAME);
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mch-quick-action-'));
  made.push(dir);
  return dir;
}

function document(target: string): string {
  return readFileSync(join(target, 'Contents', 'document.wflow'), 'utf8');
}

describe('QuickActionSwitch', () => {
  it('installs the shipped workflow into ~/Library/Services, then removes it; twice changes nothing more', async () => {
    const quick = new QuickActionSwitch({ source: SHIPPED, home: home() });
    expect(await quick.isEnabled()).toBe(false);
    await quick.setEnabled(true);
    await quick.setEnabled(true);
    expect(await quick.isEnabled()).toBe(true);
    expect(document(quick.target)).toBe(readFileSync(join(SHIPPED, 'Contents', 'document.wflow'), 'utf8'));
    expect(readFileSync(join(quick.target, 'Contents', 'Info.plist'), 'utf8')).toContain('Copy Share Link');
    await quick.setEnabled(false);
    await quick.setEnabled(false);
    expect(existsSync(quick.target)).toBe(false);
    expect(await quick.isEnabled()).toBe(false);
  });

  it('brings an older copy of ours up to date', async () => {
    const quick = new QuickActionSwitch({ source: SHIPPED, home: home() });
    cpSync(SHIPPED, quick.target, { recursive: true });
    writeFileSync(join(quick.target, 'Contents', 'Info.plist'), 'an older version');
    expect(await quick.isEnabled()).toBe(true);
    await quick.setEnabled(true);
    expect(readFileSync(join(quick.target, 'Contents', 'Info.plist'), 'utf8')).toContain('NSServices');
  });

  it("leaves someone else's workflow of the same name alone and says what to do", async () => {
    const quick = new QuickActionSwitch({ source: SHIPPED, home: home() });
    mkdirSync(join(quick.target, 'Contents'), { recursive: true });
    writeFileSync(join(quick.target, 'Contents', 'document.wflow'), 'echo my own workflow');
    expect(await quick.isEnabled()).toBe(false);
    await expect(quick.setEnabled(true)).rejects.toMatchObject({
      code: 'INTEGRATION_FILE_INVALID',
      message: expect.stringMatching(/another workflow of the same name: rename it/) as unknown,
    });
    await expect(quick.setEnabled(false)).rejects.toMatchObject({ code: 'INTEGRATION_FILE_INVALID' });
    expect(document(quick.target)).toBe('echo my own workflow');
  });

  it('says why when the workflow cannot be copied', async () => {
    const quick = new QuickActionSwitch({ source: join(home(), 'missing.workflow'), home: home() });
    await expect(quick.setEnabled(true)).rejects.toMatchObject({ code: 'INTEGRATION_IO_FAILED' });
    expect(existsSync(quick.target)).toBe(false);
    expect(readdirSync(join(quick.target, '..'))).toEqual([]);
  });
});
