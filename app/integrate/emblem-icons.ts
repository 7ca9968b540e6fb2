// The emblems of sync states drawn on files in Nautilus, Nemo and Caja: our own SVG icons, installed into the user's hicolor theme and removed again.
import { mkdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileSyncState } from '../../common/file-state.ts';
import { writeFileAtomic } from '../profile/private-file.ts';
import { GENERATED_MARKER, type EntryDescription } from './entry-description.ts';
import { guardedIo } from './integrate-errors.ts';

/** The emblems we draw: one per state a file manager shows (both syncing directions share one), and shared. */
export type EmblemName =
  Exclude<FileSyncState, 'outside' | 'syncing-up' | 'syncing-down'> | 'syncing' | 'shared';

/** Which emblem a state gets; `outside` gets none. */
export const STATE_EMBLEMS: Record<Exclude<FileSyncState, 'outside'>, EmblemName> = {
  'up-to-date': 'up-to-date',
  'syncing-up': 'syncing',
  'syncing-down': 'syncing',
  waiting: 'waiting',
  conflict: 'conflict',
  'not-synced': 'not-synced',
  'online-only': 'online-only',
  kept: 'kept',
  excluded: 'excluded',
};

// The tray icons' palette (build/icons/src): blue for sync, grey for at rest, red for attention, amber
// for a warning; green, which the tray does not need, is what every sync client uses for "safe here".
const BLUE = '#1f6fd1';
const GREEN = '#2e8540';
const GREY = '#6b7380';
const RED = '#d0302a';
const AMBER = '#c26a00';
const PURPLE = '#7048c8';

/**
 * Each emblem on a 16-unit grid, as the tray icons are drawn: a white glyph of round strokes (2 units,
 * so it stays a clear line at 16 px) on a disc of the state's colour, whose white rim keeps it apart
 * from the file's own icon below. Online only inverts it: a cloud on white, the file is not here.
 */
const EMBLEMS: Record<EmblemName, { title: string; disc: string; glyph: string }> = {
  'up-to-date': { title: 'up to date', disc: GREEN, glyph: '<path d="M4.6 8.3 7 10.7l4.4-4.9"/>' },
  syncing: {
    title: 'syncing',
    disc: BLUE,
    glyph: '<path d="M5.9 11.6V4.6M3.9 6.6l2-2 2 2M10.1 4.4v7M8.1 9.4l2 2 2-2" stroke-width="1.6"/>',
  },
  waiting: {
    title: 'waiting to sync',
    disc: GREY,
    glyph:
      '<circle cx="8" cy="8" r="4.3" stroke-width="1.5"/><path d="M8 5.6v2.6l1.7 1.1" stroke-width="1.5"/>',
  },
  conflict: {
    title: 'conflict',
    disc: RED,
    glyph:
      '<path d="M4.4 6h6.8M9.4 4.1 11.3 6 9.4 7.9M11.6 10H4.8M6.6 8.1 4.7 10l1.9 1.9" stroke-width="1.5"/>',
  },
  'not-synced': {
    title: 'not synced',
    disc: AMBER,
    glyph: '<path d="M8 4.1v4.6"/><circle cx="8" cy="11.6" r="1.15" fill="#fff" stroke="none"/>',
  },
  'online-only': {
    title: 'online only',
    disc: '#fff',
    glyph:
      `<g fill="${BLUE}" stroke="none"><circle cx="5.7" cy="9.2" r="2.3"/><circle cx="8.5" cy="7.4" r="2.9"/>` +
      `<circle cx="10.9" cy="9.5" r="2"/><rect x="5.7" y="9.3" width="5.2" height="2.2"/></g>`,
  },
  kept: {
    title: 'kept on this device',
    disc: GREEN,
    glyph: '<path d="M8 3.9v5.6M5.5 7.2 8 9.7l2.5-2.5M4.9 12.1h6.2"/>',
  },
  excluded: { title: 'not synced on this computer', disc: GREY, glyph: '<path d="M4.7 8h6.6"/>' },
  shared: {
    title: 'shared by link',
    disc: PURPLE,
    glyph:
      '<path d="M7.3 5.6 8.2 4.7a2 2 0 0 1 2.9 2.9L9.9 8.8a2 2 0 0 1-2.6.3M8.7 10.4l-.9.9a2 2 0 0 1-2.9-2.9L6.1 7.2a2 2 0 0 1 2.6-.3" stroke-width="1.6"/>',
  },
};

export const EMBLEM_NAMES = Object.keys(EMBLEMS) as EmblemName[];

/** The SVG of one emblem; its first line says we generated it, which is what `--remove` checks. */
export function renderEmblemSvg(name: EmblemName): string {
  const { title, disc, glyph } = EMBLEMS[name];
  const rim = disc === '#fff' ? BLUE : '#fff';
  return [
    // XML forbids "--" inside a comment, so the option is named without its dashes.
    `<!-- ${GENERATED_MARKER}, whose remove option deletes it again. mch-sync emblem: ${title}. -->`,
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" width="16" height="16">',
    `  <circle cx="8" cy="8" r="7.2" fill="${disc}" stroke="${rim}" stroke-width="1.2"/>`,
    `  <g fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${glyph}</g>`,
    '</svg>',
    '',
  ].join('\n');
}

/**
 * The keyword the extension passes to `add_emblem`: `mch-sync-<emblem>`, with the profile's key for a
 * profile other than the default, as every entry's name. Nautilus 4, Nemo and Caja all look a keyword
 * up in the icon theme as `emblem-<keyword>`, then as `<keyword>` (nautilus_file_get_emblem_icons,
 * nemo_file_get_emblem_icons, caja_file_get_emblem_icons), so the files are named `emblem-<keyword>.svg`.
 */
export function emblemKeyword(description: EntryDescription, name: EmblemName): string {
  const stem = description.profileKey === undefined ? 'mch-sync' : `mch-sync-${description.profileKey}`;
  return `${stem}-${name}`;
}

/** Our icons in the user's hicolor theme, one target for the whole set. */
export interface EmblemIconsTarget {
  kind: 'emblem-icons';
  id: 'emblem-icons';
  program: string;
  /** `$XDG_DATA_HOME/icons/hicolor/scalable/emblems`: hicolor's index.theme lists that folder. */
  path: string;
  /** `$XDG_DATA_HOME/icons/hicolor`, whose time is touched after a change (below). */
  themeDir: string;
  mode: number;
  files: ReadonlyArray<{ name: string; content: string }>;
}

export function emblemIconsTarget(description: EntryDescription, dataHome: string): EmblemIconsTarget {
  const themeDir = join(dataHome, 'icons', 'hicolor');
  return {
    kind: 'emblem-icons',
    id: 'emblem-icons',
    program: 'nautilus',
    path: join(themeDir, 'scalable', 'emblems'),
    themeDir,
    mode: 0o644,
    files: EMBLEM_NAMES.map((name) => ({
      name: `emblem-${emblemKeyword(description, name)}.svg`,
      content: renderEmblemSvg(name),
    })),
  };
}

export async function emblemIconsState(
  target: EmblemIconsTarget,
): Promise<{ state: 'installed' | 'outdated' | 'not-installed' }> {
  let found = 0;
  let current = 0;
  for (const file of target.files) {
    const path = join(target.path, file.name);
    const text = await guardedIo(path, 'read', () => readOrUndefined(path));
    if (text === undefined) continue;
    found += 1;
    if (text === file.content && ((await stat(path)).mode & 0o777) === target.mode) current += 1;
  }
  if (found === 0) return { state: 'not-installed' };
  return { state: current === target.files.length ? 'installed' : 'outdated' };
}

export async function installEmblemIcons(target: EmblemIconsTarget): Promise<'written' | 'unchanged'> {
  if ((await emblemIconsState(target)).state === 'installed') return 'unchanged';
  await guardedIo(target.path, 'write', async () => {
    await mkdir(target.path, { recursive: true, mode: 0o755 });
    for (const file of target.files) {
      const path = join(target.path, file.name);
      const text = await readOrUndefined(path);
      if (text !== file.content || ((await stat(path)).mode & 0o777) !== target.mode) {
        await writeFileAtomic(path, file.content, target.mode);
      }
    }
  });
  await touchTheme(target);
  return 'written';
}

/** Removes only the files whose first line says we wrote them; another's file at our name stays. */
export async function removeEmblemIcons(
  target: EmblemIconsTarget,
): Promise<'removed' | 'absent' | 'not-ours'> {
  let removed = 0;
  let foreign = 0;
  for (const file of target.files) {
    const path = join(target.path, file.name);
    const text = await guardedIo(path, 'read', () => readOrUndefined(path));
    if (text === undefined) continue;
    if (!(text.split('\n', 1)[0] ?? '').includes(GENERATED_MARKER)) {
      foreign += 1;
      continue;
    }
    await guardedIo(path, 'remove', () => rm(path, { force: true }));
    removed += 1;
  }
  if (removed > 0) await touchTheme(target);
  if (removed > 0) return 'removed';
  return foreign > 0 ? 'not-ours' : 'absent';
}

/**
 * GTK reads a theme folder again when its time changes (the icon theme spec asks installers to touch
 * it), and trusts an `icon-theme.cache` only for folders older than the cache: so a running file
 * manager sees new emblems, and a stale cache is passed over, without running gtk-update-icon-cache.
 */
async function touchTheme(target: EmblemIconsTarget): Promise<void> {
  const now = new Date();
  await guardedIo(target.themeDir, 'write', () => utimes(target.themeDir, now, now));
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
