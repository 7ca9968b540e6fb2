// The emblems and the actions by state of the nautilus-python extension, run under Debian's python against Nautilus 4.0's real introspection data, asking the real state service of `mch-sync run`.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { EMBLEM_NAMES, emblemKeyword } from '../../../../app/integrate/emblem-icons.ts';
import { describeEntry, type EntryDescription } from '../../../../app/integrate/entry-description.ts';
import type { StateJson } from '../../../../app/cli/state-commands/state-command.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { it } from '../../../helpers/fixtures.ts';
import { NautilusHarness } from '../../../helpers/nautilus-harness.ts';
import { liveSync, mch, waitFor } from '../../../helpers/on-demand-cli.ts';
import { HELPER_DIR, missingGi, pythonJson } from '../../../helpers/python-gi.ts';
import { local, syncedWorld, writeLocal } from '../../../helpers/versions-cli.ts';

const SLOW = 300_000;
const skipReason = missingGi({ nautilus: true });

/** What the item carries now, once the extension's invalidations ran (Nautilus asks an item on screen again). */
async function emblemsOf(harness: NautilusHarness, path: string): Promise<string[]> {
  return (await harness.shown([path])).emblems[path] ?? [];
}

/** Waits until the item carries exactly `expected`; says what it carried last when it never does. */
async function emblemBecomes(
  harness: NautilusHarness,
  path: string,
  ...expected: string[][]
): Promise<string[]> {
  let last: string[] = [];
  try {
    return await waitFor(`the emblems ${JSON.stringify(expected)} on ${path}`, async () => {
      last = await emblemsOf(harness, path);
      return expected.some((one) => JSON.stringify(one) === JSON.stringify(last)) ? last : undefined;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; it carried ${JSON.stringify(last)}`, { cause: error });
  }
}

describe.skipIf(skipReason !== undefined)(
  `emblems and actions by state against mch-sync run (${skipReason ?? 'Nautilus 4.0 found'})`,
  () => {
    it(
      'draws the states, follows changes, finds the client started later or restarted, and runs the entries',
      async ({ profile, newPair }) => {
        const world = await syncedWorld(profile, newPair, 'emblems', {
          'docs/a.txt': 'a',
          'keep/k.txt': 'k',
          'top.txt': 'top',
        });
        // Installed as a user does it: the extension and our icons in this HOME's data folder.
        expectExit(await mch(profile, ['integrate', '--install']), 0);
        const data = profile.env['XDG_DATA_HOME'] ?? '';
        const extensions = join(data, 'nautilus-python', 'extensions');
        const extension = join(extensions, readdirSync(extensions)[0] ?? '');
        const description: EntryDescription = describeEntry({
          baseCommand: [],
          profileDir: profile.profile,
          defaultProfile: false,
        });
        const emblem = (name: Parameters<typeof emblemKeyword>[1]): string =>
          emblemKeyword(description, name);

        // Each emblem keyword is found by GTK's icon lookup, as Nautilus looks it up: emblem-<keyword>,
        // then <keyword>, in the hicolor theme of the data folder (behind the system's index.theme).
        const found = pythonJson<Record<string, string | null>>(
          `import json, sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gio, Gtk
theme = Gtk.IconTheme.new()
theme.set_search_path([sys.argv[1], "/usr/share/icons"])
result = {}
for keyword in sys.argv[2:]:
    info = theme.lookup_by_gicon(Gio.ThemedIcon.new_from_names(["emblem-" + keyword, keyword]), 16, 0)
    result[keyword] = info.get_filename() if info else None
print(json.dumps(result))`,
          [join(data, 'icons'), ...EMBLEM_NAMES.map((name) => emblem(name))],
        );
        for (const name of EMBLEM_NAMES) {
          expect(found[emblem(name)]).toBe(
            join(data, 'icons', 'hicolor', 'scalable', 'emblems', `emblem-${emblem(name)}.svg`),
          );
        }

        // notify-send stands in as the argv recorder: what the extension tells the user is written down.
        const bin = join(profile.home, 'bin');
        mkdirSync(bin);
        copyFileSync(join(HELPER_DIR, 'argv-recorder.py'), join(bin, 'notify-send'));
        chmodSync(join(bin, 'notify-send'), 0o755);
        const notified = join(profile.home, 'notified.json');
        const harness = new NautilusHarness(extension, {
          ...process.env,
          PATH: `${bin}:${process.env['PATH'] ?? ''}`,
          RECORD_TO: notified,
        });
        const top = local(world, 'top.txt');
        try {
          // The file manager started first: no client, no emblem, "Copy share link" alone.
          expect((await harness.show([top, local(world, 'docs'), world.folder])).emblems[top]).toEqual([]);
          expect(await harness.labels([top])).toEqual(['Copy share link']);

          let live = await liveSync(profile, world.folder, { mounted: false });
          try {
            // Found without a restart of the file manager.
            await emblemBecomes(harness, top, [emblem('up-to-date')]);
            await emblemBecomes(harness, world.folder, [emblem('up-to-date')]);
            const edited = local(world, 'docs/a.txt');
            expect((await harness.show([edited])).emblems[edited]).toEqual([emblem('up-to-date')]);

            // An edit: waiting or syncing, then up to date again, pushed and redrawn.
            writeLocal(world, 'docs/a.txt', 'a 2');
            await waitFor('the edit drawn as waiting or syncing', async () => {
              const drawn = (await harness.shown([edited])).history[edited] ?? [];
              return drawn.some(([one]) => one === emblem('waiting') || one === emblem('syncing'))
                ? true
                : undefined;
            });
            await emblemBecomes(harness, edited, [emblem('up-to-date')]);

            // A name clash is not synced (the name that came second), and the folder above it says so.
            const clashing = ['docs/caf\u00e9.txt', 'docs/cafe\u0301.txt'].map((name) => local(world, name));
            writeLocal(world, 'docs/caf\u00e9.txt', 'nfc');
            writeLocal(world, 'docs/cafe\u0301.txt', 'nfd');
            await harness.show(clashing);
            const loser = await waitFor('a name clash drawn', async () => {
              const { emblems } = await harness.shown(clashing);
              return clashing.find((path) => emblems[path]?.[0] === emblem('not-synced'));
            });
            await emblemBecomes(harness, local(world, 'docs'), [emblem('not-synced')]);
            expect(await harness.labels([loser])).toEqual([
              'Copy share link',
              'Why is this not synced?',
              'Show in mch-sync',
            ]);

            // A real conflict: both sides changed while paused.
            expectExit(await mch(profile, ['pause', '--folder', world.folder]), 0);
            writeLocal(world, 'top.txt', 'top here');
            await world.device.writeRemote('top.txt', 'top there');
            expectExit(await mch(profile, ['resume', '--folder', world.folder]), 0);
            await emblemBecomes(harness, top, [emblem('conflict')]);

            // "Stop syncing this folder" really excludes it, and its emblem says so.
            const keep = local(world, 'keep');
            await harness.show([keep]);
            expect(await harness.labels([keep])).toEqual([
              'Copy share link',
              'Stop syncing this folder',
              'Show in mch-sync',
            ]);
            await harness.activate('Stop syncing this folder', [keep]);
            await waitFor('keep excluded', async () => {
              const run = await mch(profile, ['state', keep, '--json']);
              const [state] = (JSON.parse(run.stdout) as { states: StateJson[] }).states;
              return state?.state === 'excluded' ? true : undefined;
            });
            await emblemBecomes(harness, keep, [emblem('excluded')]);
            expect(await harness.labels([keep])).toEqual([
              'Copy share link',
              'Sync this folder',
              'Show in mch-sync',
            ]);

            // "Show in mch-sync" from `mch-sync run`, which has no window: the user is told so.
            rmSync(notified, { force: true });
            await harness.activate('Show in mch-sync', [top]);
            await waitFor('a notification', () => (existsSync(notified) ? true : undefined));
            const told = JSON.parse(readFileSync(notified, 'utf8')) as { argv: string[] };
            expect(told.argv.at(-1)).toMatch(/window/i);

            // The client restarts: the emblems go with it and come back with the new one.
            await live.stop();
            await emblemBecomes(harness, top, []);
            live = await liveSync(profile, world.folder, { mounted: false });
            await emblemBecomes(harness, top, [emblem('conflict')], [emblem('up-to-date')]);
          } finally {
            await live.stop();
          }
        } finally {
          harness.close();
        }
      },
      SLOW,
    );
  },
);
