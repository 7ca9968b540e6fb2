// The window's "Add a folder" and "Remove" against the real device: where the sidebar places are installed, a new pair gets its GTK bookmark and KDE place, and a removed one loses them, the user's lines kept.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import { describeEntry } from '../../../../app/integrate/entry-description.ts';
import { installSidebarPlaces, sidebarPlacesTargets } from '../../../../app/integrate/sidebar-places.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { callCore, openTestCore, signInAlice } from '../../../helpers/core-call.ts';

let home: string;
let core: UiCore;
let gtkFile: string;
let kdeFile: string;
const USER_LINES = 'file:///srv/music Music\n';

test.beforeAll(async ({ device }) => {
  home = mkdtempSync(join(tmpdir(), 'mch-ui-sidebar-'));
  const description = describeEntry({
    baseCommand: ['/m'],
    profileDir: join(home, 'profile'),
    defaultProfile: false,
  });
  const targets = sidebarPlacesTargets(description, {
    data: join(home, 'data'),
    config: join(home, 'config'),
  });
  [gtkFile, kdeFile] = targets.map((target) => target.path) as [string, string];
  mkdirSync(join(home, 'config', 'gtk-3.0'), { recursive: true });
  writeFileSync(gtkFile, USER_LINES);
  // As `mch-sync integrate --install` does before any pair: nothing to add yet, but on from now.
  for (const target of targets) await installSidebarPlaces(target);
  core = await openTestCore(home);
  await signInAlice(core, device);
}, 60_000);

afterAll(async () => {
  await core?.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

describe('the sidebar places of the window’s pairs', () => {
  it('puts a pair added in the window in the sidebars, and takes it out with the pair', async () => {
    const cloud = join(home, 'Cloud');
    mkdirSync(cloud);
    const view = await callCore(core, 'pairs:add', { localRoot: cloud, remoteFolder: '/Cloud' });
    expect(readFileSync(gtkFile, 'utf8')).toBe(`${USER_LINES}file://${cloud} Cloud\n`);
    expect(readFileSync(kdeFile, 'utf8')).toContain(
      `<bookmark href="file://${cloud}">\n  <title>Cloud</title>`,
    );
    await callCore(core, 'pairs:remove', { pairId: view.id, keepLocalFiles: true });
    expect(readFileSync(gtkFile, 'utf8')).toBe(USER_LINES);
    // The places file was made for this pair alone: it goes with it.
    expect(existsSync(kdeFile)).toBe(false);
  });
});
