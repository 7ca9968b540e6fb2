// settings.json: private and atomic, unknown keys kept, a damaged file reported with what to do.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsFile } from '../../../../app/profile/settings.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function profile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mch-sync-settings-'));
  folders.push(dir);
  return join(dir, 'nested', 'profile');
}

describe('SettingsFile', () => {
  it('reads an absent file as empty settings', async () => {
    expect(await new SettingsFile(profile()).read()).toEqual({});
  });

  it('creates the profile folder (0700) and writes the file (0600) with no temporary file left', async () => {
    const dir = profile();
    const file = new SettingsFile(dir);
    await file.update(() => ({
      configUrl: 'https://config.example',
      user: { id: 'auth0|1', name: 'alice' },
      secretStore: 'keychain',
      device: { id: 'd1', name: 'Home', url: 'https://home.example' },
    }));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['settings.json']);
    expect(await file.read()).toEqual({
      configUrl: 'https://config.example',
      user: { id: 'auth0|1', name: 'alice' },
      secretStore: 'keychain',
      device: { id: 'd1', name: 'Home', url: 'https://home.example' },
    });
  });

  it('keeps keys written by other parts of the client, and removes the ones set to undefined', async () => {
    const dir = profile();
    const file = new SettingsFile(dir);
    await file.update(() => ({ configUrl: 'https://c', user: { id: 'u', name: 'n' } }));
    const raw = JSON.parse(readFileSync(file.path, 'utf8')) as Record<string, unknown>;
    writeFileSync(file.path, JSON.stringify({ ...raw, syncFolder: '/home/a/Cloud' }));
    await file.update((current) => ({ ...current, user: undefined }));
    expect(JSON.parse(readFileSync(file.path, 'utf8'))).toEqual({
      version: 1,
      configUrl: 'https://c',
      syncFolder: '/home/a/Cloud',
    });
  });

  it('reports a damaged file as PROFILE_INVALID, saying how to recover', async () => {
    const dir = profile();
    const file = new SettingsFile(dir);
    await file.update(() => ({}));
    writeFileSync(file.path, '{"version": 1, "user": {"id": 5}}');
    await expect(file.read()).rejects.toMatchObject({ code: 'PROFILE_INVALID' });
    await expect(file.read()).rejects.toThrow(
      /settings\.json is not valid \(.*user\.id.*\): fix it, or delete it and run `mch-sync login` again\./,
    );
    writeFileSync(file.path, 'not json');
    await expect(file.read()).rejects.toThrow('(it is not JSON)');
  });
});
