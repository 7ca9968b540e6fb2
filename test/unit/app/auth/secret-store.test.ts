// Choosing the secret store (probe, MCH_SECRET_STORE, the recorded kind) and the file store's rules.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../../app/auth/secrets/file-secret-store.ts';
import { probeKeychain, type KeytarApi } from '../../../../app/auth/secrets/keychain-store.ts';
import { openSecretStore } from '../../../../app/auth/secrets/secret-store.ts';
import { MemoryKeychain } from '../../../helpers/mch-sync.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function profile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mch-sync-secrets-'));
  folders.push(dir);
  return dir;
}

function open(options: { env?: NodeJS.ProcessEnv; keychain?: KeytarApi; recorded?: 'keychain' | 'file' }) {
  const warnings: string[] = [];
  const dir = profile();
  const store = openSecretStore({
    profileDir: dir,
    warn: (message) => warnings.push(message),
    env: {},
    ...options,
  });
  return { store, warnings, dir };
}

describe('openSecretStore at login', () => {
  it('chooses the keychain when a set/get/delete round trip works, silently', async () => {
    const keychain = new MemoryKeychain();
    const { store, warnings } = open({ keychain });
    expect((await store).kind).toBe('keychain');
    expect(warnings).toEqual([]);
    expect(keychain.entries.size).toBe(0);
  });

  it('falls back to the file with one warning when the keychain fails', async () => {
    const keychain = new MemoryKeychain();
    keychain.failure = 'DBus error';
    const { store, warnings, dir } = open({ keychain });
    expect((await store).kind).toBe('file');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `no system keychain works here (DBus error), so tokens will be kept in ${join(dir, 'secrets.json')}`,
    );
  });

  it('falls back when the keychain does not answer in time', async () => {
    const hanging: KeytarApi = {
      setPassword: () => new Promise(() => undefined),
      getPassword: () => Promise.resolve(null),
      deletePassword: () => Promise.resolve(true),
    };
    expect(await probeKeychain(hanging, 20)).toEqual({ ok: false, reason: 'no answer within 0.02 s' });
  });

  it('refuses a keychain that hands back something else than was stored', async () => {
    const forgetful: KeytarApi = {
      setPassword: () => Promise.resolve(),
      getPassword: () => Promise.resolve(null),
      deletePassword: () => Promise.resolve(false),
    };
    expect(await probeKeychain(forgetful)).toEqual({
      ok: false,
      reason: 'it did not return what was stored',
    });
  });

  it('uses the file when MCH_SECRET_STORE=file, without touching the keychain, and warns', async () => {
    const keychain = new MemoryKeychain();
    keychain.failure = 'must not be called';
    const { store, warnings } = open({ keychain, env: { MCH_SECRET_STORE: 'file' } });
    expect((await store).kind).toBe('file');
    expect(warnings[0]).toContain('because MCH_SECRET_STORE=file');
  });

  it('fails clearly when MCH_SECRET_STORE=keychain and the keychain does not work', async () => {
    const keychain = new MemoryKeychain();
    keychain.failure = 'no Secret Service';
    const { store } = open({ keychain, env: { MCH_SECRET_STORE: 'keychain' } });
    await expect(store).rejects.toMatchObject({ code: 'SECRET_STORE_UNAVAILABLE' });
    await expect(store).rejects.toThrow(
      'The system keychain does not work here (no Secret Service), and MCH_SECRET_STORE=keychain asks for it',
    );
  });

  it('refuses an MCH_SECRET_STORE it does not know', async () => {
    await expect(open({ env: { MCH_SECRET_STORE: 'vault' } }).store).rejects.toThrow(
      'MCH_SECRET_STORE is "vault": set it to "keychain" or "file", or unset it to let mch-sync choose.',
    );
  });
});

describe('openSecretStore after login', () => {
  it('uses the recorded store without probing, and says when MCH_SECRET_STORE asks for the other', async () => {
    const keychain = new MemoryKeychain();
    keychain.failure = 'down';
    const { store, warnings } = open({ keychain, recorded: 'keychain', env: { MCH_SECRET_STORE: 'file' } });
    const opened = await store;
    expect(opened.kind).toBe('keychain');
    expect(warnings[0]).toContain(
      'MCH_SECRET_STORE=file is ignored: this profile keeps its tokens in the system keychain',
    );
    await expect(opened.get('x')).rejects.toMatchObject({ code: 'SECRET_STORE_UNAVAILABLE' });
  });
});

describe('FileSecretStore', () => {
  it('writes secrets.json with mode 0600 atomically, leaving no temporary file', async () => {
    const dir = profile();
    const store = await FileSecretStore.open(dir, () => undefined);
    await store.set('alice', 'one');
    await store.set('bob', 'two');
    expect(await store.get('alice')).toBe('one');
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['secrets.json']);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toEqual({
      version: 1,
      secrets: { alice: 'one', bob: 'two' },
    });
  });

  it('removes the file with its last secret', async () => {
    const dir = profile();
    const store = await FileSecretStore.open(dir, () => undefined);
    await store.set('alice', 'one');
    await store.delete('nobody');
    await store.delete('alice');
    expect(readdirSync(dir)).toEqual([]);
    expect(await store.get('alice')).toBeUndefined();
  });

  it('makes a widened file private again on open and warns once', async () => {
    const dir = profile();
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ version: 1, secrets: {} }), { mode: 0o644 });
    const warnings: string[] = [];
    await FileSecretStore.open(dir, (message) => warnings.push(message));
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([
      expect.stringContaining('was readable by others (mode 0644); it is 0600 again'),
    ]);
  });

  it('reports a damaged file as SECRET_STORE_FAILED with what to do', async () => {
    const dir = profile();
    writeFileSync(join(dir, 'secrets.json'), '{"version": 1, "secrets": [', { mode: 0o600 });
    const store = await FileSecretStore.open(dir, () => undefined);
    await expect(store.get('alice')).rejects.toMatchObject({ code: 'SECRET_STORE_FAILED' });
    await expect(store.get('alice')).rejects.toThrow(
      /is unusable: it is not JSON .*delete it and run `mch-sync login` again/,
    );
  });

  it('does not mistake an account named like an Object method for a secret', async () => {
    const store = await FileSecretStore.open(profile(), () => undefined);
    expect(await store.get('constructor')).toBeUndefined();
  });
});
