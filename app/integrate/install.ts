// Where each file-manager entry goes and installing, removing and checking them: idempotent, and only ever our own entries.
import { accessSync, constants } from 'node:fs';
import { mkdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { writeFileAtomic } from '../profile/private-file.ts';
import {
  emblemIconsState,
  emblemIconsTarget,
  installEmblemIcons,
  removeEmblemIcons,
  type EmblemIconsTarget,
} from './emblem-icons.ts';
import { entryStem, GENERATED_MARKER, type EntryDescription } from './entry-description.ts';
import { guardedIo, IntegrateError } from './integrate-errors.ts';
import { KDE_SERVICE_MENU_MODE, renderKdeServiceMenu } from './kde-service-menu.ts';
import { renderNemoAction } from './nemo-action.ts';
import { renderPythonExtension } from './python-extension.ts';
import {
  installSidebarPlaces,
  removeSidebarPlaces,
  sidebarPlacesState,
  sidebarPlacesTargets,
  type SidebarPlacesTarget,
} from './sidebar-places.ts';
import {
  countThunarActions,
  EMPTY_UCA_XML,
  findThunarAction,
  mergeThunarAction,
  removeThunarAction,
  renderThunarAction,
} from './thunar-actions.ts';

export type TargetId =
  | 'nautilus-python'
  | 'nemo-python'
  | 'caja-python'
  | 'nemo-action'
  | 'kde-service-menu'
  | 'thunar'
  | 'emblem-icons';

/** One entry: a file of ours (written whole), or our action inside Thunar's shared `uca.xml`. */
export type IntegrationTarget =
  | { kind: 'own-file'; id: TargetId; program: string; path: string; mode: number; content: string }
  | {
      kind: 'thunar';
      id: 'thunar';
      program: string;
      path: string;
      block: string;
      uniqueId: string;
      systemFiles: string[];
    }
  | EmblemIconsTarget
  | SidebarPlacesTarget;

/** Where the entries go: the XDG base folders of `env` (XDG Base Directory spec), else under `home`. */
export interface IntegrationPlaces {
  env: NodeJS.ProcessEnv;
  home: string;
}

const ENTRY_MODE = 0o644;
/** Thunar creates `uca.xml` with g_mkstemp, 0600; a new one is made the same way. */
const UCA_XML_MODE = 0o600;

function xdgHome(env: NodeJS.ProcessEnv, variable: string, fallback: string): string {
  const value = env[variable];
  // A relative value is invalid by the spec and must be ignored.
  return value !== undefined && isAbsolute(value) ? value : fallback;
}

/** Every entry for `description`, in the order they are installed and shown. */
export function integrationTargets(
  description: EntryDescription,
  places: IntegrationPlaces,
): IntegrationTarget[] {
  const data = xdgHome(places.env, 'XDG_DATA_HOME', join(places.home, '.local', 'share'));
  const config = xdgHome(places.env, 'XDG_CONFIG_HOME', join(places.home, '.config'));
  const stem = entryStem(description);
  const python = (id: TargetId, manager: 'nautilus' | 'nemo' | 'caja'): IntegrationTarget => ({
    kind: 'own-file',
    id,
    program: manager,
    path: join(data, `${manager}-python`, 'extensions', `${stem}.py`),
    mode: ENTRY_MODE,
    content: renderPythonExtension(description, manager),
  });
  const systemConfig = (places.env['XDG_CONFIG_DIRS'] || '/etc/xdg').split(delimiter).filter(isAbsolute);
  return [
    python('nautilus-python', 'nautilus'),
    python('nemo-python', 'nemo'),
    python('caja-python', 'caja'),
    {
      kind: 'own-file',
      id: 'nemo-action',
      program: 'nemo',
      path: join(data, 'nemo', 'actions', `${stem}.nemo_action`),
      mode: ENTRY_MODE,
      content: renderNemoAction(description),
    },
    {
      kind: 'own-file',
      id: 'kde-service-menu',
      program: 'dolphin',
      path: join(data, 'kio', 'servicemenus', `${stem}.desktop`),
      mode: KDE_SERVICE_MENU_MODE,
      content: renderKdeServiceMenu(description),
    },
    {
      kind: 'thunar',
      id: 'thunar',
      program: 'thunar',
      path: join(config, 'Thunar', 'uca.xml'),
      block: renderThunarAction(description, stem),
      uniqueId: stem,
      systemFiles: systemConfig.map((dir) => join(dir, 'Thunar', 'uca.xml')),
    },
    emblemIconsTarget(description, data),
    // The synced folders in the sidebars (GTK bookmarks, KDE places), last: they are not menu entries.
    ...sidebarPlacesTargets(description, { data, config }),
  ];
}

export type TargetState =
  | { state: 'installed' }
  /** Ours, but not what an install would write now (another command, an older version, a changed mode). */
  | { state: 'outdated' }
  | { state: 'not-installed' }
  /** Something there could not be read or understood; `detail` says what. */
  | { state: 'invalid'; detail: string };

export async function targetState(target: IntegrationTarget): Promise<TargetState> {
  try {
    if (target.kind === 'sidebar-places') return await sidebarPlacesState(target);
    if (target.kind === 'emblem-icons') return await emblemIconsState(target);
    if (target.kind === 'own-file') {
      const found = await guardedIo(target.path, 'read', () => readWithMode(target.path));
      if (found === undefined) return { state: 'not-installed' };
      return found.text === target.content && found.mode === target.mode
        ? { state: 'installed' }
        : { state: 'outdated' };
    }
    const path = await resolveLink(target.path);
    const text = await guardedIo(path, 'read', () => readText(path));
    if (text === undefined) return { state: 'not-installed' };
    const count = countThunarActions(text, target.uniqueId, target.path);
    if (count === 0) return { state: 'not-installed' };
    const current = findThunarAction(text, target.uniqueId, target.path);
    return count === 1 && current === target.block ? { state: 'installed' } : { state: 'outdated' };
  } catch (error) {
    if (error instanceof IntegrateError) return { state: 'invalid', detail: error.message };
    throw error;
  }
}

/** What an install did to one target. */
export type InstallOutcome = 'written' | 'unchanged';

export async function installTarget(target: IntegrationTarget): Promise<InstallOutcome> {
  if (target.kind === 'sidebar-places') return await installSidebarPlaces(target);
  if (target.kind === 'emblem-icons') return await installEmblemIcons(target);
  if (target.kind === 'own-file') {
    if ((await targetState(target)).state === 'installed') return 'unchanged';
    await guardedIo(target.path, 'write', async () => {
      await mkdir(dirname(target.path), { recursive: true, mode: 0o755 });
      await writeFileAtomic(target.path, target.content, target.mode);
    });
    return 'written';
  }
  // A link (a dotfiles folder) is followed: the file it points at is the one Thunar reads.
  const path = await resolveLink(target.path);
  const found = await guardedIo(path, 'read', () => readWithMode(path));
  // Without a file of the user's, Thunar reads the system one (XDG_CONFIG_DIRS): start from it, or
  // its actions ("Open Terminal Here"...) would disappear behind ours.
  const system = found === undefined ? await firstExisting(target.systemFiles) : undefined;
  const base = found?.text ?? system?.text ?? EMPTY_UCA_XML;
  // A system file that cannot be merged into is named in the error: it is the one to look at.
  const merged = mergeThunarAction(base, target.block, target.uniqueId, system?.path ?? path);
  if (found !== undefined && merged === found.text) return 'unchanged';
  await guardedIo(path, 'write', async () => {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, merged, found?.mode ?? UCA_XML_MODE);
  });
  return 'written';
}

/** What a removal did to one target. */
export type RemoveOutcome = 'removed' | 'absent' | 'not-ours';

export async function removeTarget(target: IntegrationTarget): Promise<RemoveOutcome> {
  if (target.kind === 'sidebar-places') return await removeSidebarPlaces(target);
  if (target.kind === 'emblem-icons') return await removeEmblemIcons(target);
  if (target.kind === 'own-file') {
    const text = await guardedIo(target.path, 'read', () => readText(target.path));
    if (text === undefined) return 'absent';
    // A file at our name that we did not write is someone else's: left alone.
    if (!(text.split('\n', 1)[0] ?? '').includes(GENERATED_MARKER)) return 'not-ours';
    await guardedIo(target.path, 'remove', () => rm(target.path, { force: true }));
    return 'removed';
  }
  const path = await resolveLink(target.path);
  const found = await guardedIo(path, 'read', () => readWithMode(path));
  if (found === undefined) return 'absent';
  const remaining = removeThunarAction(found.text, target.uniqueId, path);
  if (remaining === found.text) return 'absent';
  // The file stays even when ours was its only action: an empty uca.xml still hides the system one,
  // which may be what its user wanted.
  await guardedIo(path, 'write', () => writeFileAtomic(path, remaining, found.mode));
  return 'removed';
}

/** Whether the target's file manager seems installed: its program is in PATH. */
export function fileManagerFound(target: IntegrationTarget, env: NodeJS.ProcessEnv): boolean {
  return (env['PATH'] ?? '')
    .split(delimiter)
    .filter(isAbsolute)
    .some((folder) => {
      try {
        accessSync(join(folder, target.program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

async function readWithMode(path: string): Promise<{ text: string; mode: number } | undefined> {
  const text = await readText(path);
  if (text === undefined) return undefined;
  return { text, mode: (await stat(path)).mode & 0o777 };
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The first of `paths` that can be read, with its text. */
async function firstExisting(paths: readonly string[]): Promise<{ path: string; text: string } | undefined> {
  for (const path of paths) {
    const text = await readText(path).catch(() => undefined);
    if (text !== undefined) return { path, text };
  }
  return undefined;
}

async function resolveLink(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}
