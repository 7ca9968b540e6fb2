// Start at login and the file-manager entries through settings:get/update of a real UiCore in a temporary home: the system's state shown, changed, applied at the app's start, refused where a host has no way.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvokeName, InvokeRequest, InvokeResponse, SettingsView } from '../../../../common/contract.ts';
import { LinuxAutostart } from '../../../../app/desktop/autostart.ts';
import { dispatch } from '../../../../app/ui/dispatch.ts';
import { UiCore, type UiCoreOptions } from '../../../../app/ui/ui-core.ts';
import { headlessSwitches } from '../../../../app/cli/ui-command.ts';
import { profileKeyOf } from '../../../../app/integrate/entry-description.ts';

let home: string;
let env: NodeJS.ProcessEnv;
const cores: UiCore[] = [];

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mch-system-settings-'));
  env = { HOME: home, XDG_CONFIG_DIRS: join(home, 'etc-xdg'), MCH_SECRET_STORE: 'file' };
});
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  rmSync(home, { recursive: true, force: true });
});

const APP = '/opt/MCH Sync/mch-sync';
const autostartPath = (): string => join(home, '.config', 'autostart', 'mch-sync.desktop');
const kdeMenuPath = (): string =>
  join(home, '.local', 'share', 'kio', 'servicemenus', 'mch-sync-share.desktop');

function appAutostart(): LinuxAutostart {
  return new LinuxAutostart({
    entry: {
      appId: 'mch-sync',
      name: 'MCH Sync',
      comment: 'Sync',
      icon: 'mch-sync',
      command: [APP, '--hidden'],
    },
    env,
    home,
  });
}

async function openCore(extra: Partial<UiCoreOptions>): Promise<UiCore> {
  const core = await UiCore.open({
    // The default profile, so the entries carry no profile key.
    profileDir: join(home, '.config', 'mch-sync'),
    env,
    openExternal: () => Promise.resolve(),
    log: () => {},
    ...extra,
  });
  cores.push(core);
  return core;
}

async function call<N extends InvokeName>(
  core: UiCore,
  name: N,
  request: InvokeRequest<N>,
): Promise<InvokeResponse<N>> {
  const result = await dispatch(core.handlers, name, request);
  if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
  return result.value as InvokeResponse<N>;
}

describe('system settings in the app', () => {
  it('shows what the system has, and the switches install and remove it', async () => {
    const core = await openCore({ autostart: appAutostart(), shareCommand: [APP, '--share'] });
    const events: SettingsView[] = [];
    core.onEvent((name, payload) => {
      if (name === 'settings:changed') events.push(payload as SettingsView);
    });
    expect(await call(core, 'settings:get', {})).toMatchObject({
      startAtLogin: false,
      fileManagerEntries: false,
    });
    const on = await call(core, 'settings:update', { startAtLogin: true, fileManagerEntries: true });
    expect(on).toMatchObject({ startAtLogin: true, fileManagerEntries: true });
    expect(events.at(-1)).toEqual(on);
    expect(readFileSync(autostartPath(), 'utf8')).toContain('Exec="/opt/MCH Sync/mch-sync" --hidden');
    expect(readFileSync(kdeMenuPath(), 'utf8')).toContain('Exec="/opt/MCH Sync/mch-sync" --share %F');
    const off = await call(core, 'settings:update', { fileManagerEntries: false });
    expect(off).toMatchObject({ startAtLogin: true, fileManagerEntries: false });
    expect(existsSync(kdeMenuPath())).toBe(false);
    await call(core, 'settings:update', { startAtLogin: false });
    expect(existsSync(autostartPath())).toBe(false);
  });

  it('applies the defaults at the first start only, and keeps off what was turned off', async () => {
    const first = await openCore({ autostart: appAutostart(), shareCommand: [APP, '--share'] });
    await first.applySystemSettings();
    expect(existsSync(autostartPath())).toBe(true);
    expect(existsSync(kdeMenuPath())).toBe(true);
    // Turned off in the desktop's own settings (the file removed), then the app starts again.
    rmSync(autostartPath());
    await first.close();
    const moved = '/home/ann/Apps/MCH.AppImage';
    const second = await openCore({
      autostart: appAutostart(),
      shareCommand: [moved, '--share'],
    });
    await second.applySystemSettings();
    expect(existsSync(autostartPath())).toBe(false);
    // What stayed on points at where the app is now.
    expect(readFileSync(kdeMenuPath(), 'utf8')).toContain(`Exec=${moved} --share %F`);
    expect(await call(second, 'settings:get', {})).toMatchObject({
      startAtLogin: false,
      fileManagerEntries: true,
    });
  });

  it('refuses to turn on what the host has no way to do, and reads it as off', async () => {
    const core = await openCore({});
    expect(await call(core, 'settings:get', {})).toMatchObject({
      startAtLogin: false,
      fileManagerEntries: false,
    });
    const result = await dispatch(core.handlers, 'settings:update', { startAtLogin: true });
    expect(result.ok ? null : result.error.code).toBe('SETTING_UNAVAILABLE');
    expect((await call(core, 'settings:update', { startAtLogin: false })).startAtLogin).toBe(false);
  });
});

describe('system settings in the headless host (mch-sync ui)', () => {
  it.skipIf(process.platform !== 'linux')(
    'start at login runs `mch-sync run`, the entries `mch-sync share --copy --notify`',
    async () => {
      const profileDir = join(home, 'profile b');
      mkdirSync(profileDir);
      const core = await openCore({ profileDir, ...headlessSwitches(profileDir, env) });
      await call(core, 'settings:update', { startAtLogin: true, fileManagerEntries: true });
      const autostart = join(home, '.config', 'autostart');
      const key = profileKeyOf(profileDir);
      expect(readdirSync(autostart)).toEqual([`mch-sync-run-${key}.desktop`]);
      const entry = readFileSync(join(autostart, `mch-sync-run-${key}.desktop`), 'utf8');
      expect(entry).toMatch(/^Exec=.*bin\/mch-sync\.js --profile "[^"]*profile b" run$/m);
      const kde = readFileSync(
        join(home, '.local', 'share', 'kio', 'servicemenus', `mch-sync-share-${key}.desktop`),
        'utf8',
      );
      expect(kde).toMatch(/ share --copy --notify %F$/m);
    },
  );
});
