// Versions as a user meets them from the command line: a folder synced by `mch-sync run --once`, changes made "on the device" through another client, and what the commands print.
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { expectExit } from './expect-cli.ts';
import type { CliRun } from './mch-sync.ts';
import { mch } from './on-demand-cli.ts';
import { folderNumbering, type SignedInProfile } from './signed-in-profile.ts';
import type { NewPair } from './fixtures.ts';
import type { SyncPair } from './sync-pair.ts';

/** A synced folder and the device folder it is paired with. */
export interface VersionsWorld {
  profile: SignedInProfile;
  /** The local folder (`<home>/work-N/<name>`). */
  folder: string;
  remoteFolder: string;
  /** Another client of the same user, for changes made on the device (and to read it). */
  device: SyncPair;
}

const numbered = folderNumbering();

/** A new folder holding `texts`, paired with `/<work-N>-<name>` on the device and synced once. */
export async function syncedWorld(
  profile: SignedInProfile,
  newPair: NewPair,
  name: string,
  texts: Record<string, string>,
): Promise<VersionsWorld> {
  const folder = numbered(profile.home, name, texts);
  const remoteFolder = `/${relative(profile.home, join(folder, '..'))}-${name}`;
  expectExit(await mch(profile, ['run', '--folder', folder, '--remote-folder', remoteFolder, '--once']), 0);
  return { profile, folder, remoteFolder, device: newPair({ remoteFolder }) };
}

/** One pass of `mch-sync run --once` that leaves both sides matching. */
export async function syncOnce(world: VersionsWorld): Promise<CliRun> {
  const run = await mch(world.profile, ['run', '--folder', world.folder, '--once']);
  // The summary says why a pass was held or what it left unsynced.
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  return run;
}

/** The command's `--json` output, after it exited with `code`. */
export async function mchJson<T>(profile: SignedInProfile, args: string[], code = 0): Promise<T> {
  const run = await mch(profile, [...args, '--json']);
  expectExit(run, code);
  return JSON.parse(run.stdout) as T;
}

export interface VersionJson {
  number: number;
  keptAtMs: number;
  mTimeMs: number;
  size: number;
  reason: 'replaced' | 'deleted' | 'conflict' | 'restored';
  why: string;
}

/** `mch-sync versions PATH --json`'s versions, newest first. */
export async function versionsOf(world: VersionsWorld, path: string): Promise<VersionJson[]> {
  return (await mchJson<{ versions: VersionJson[] }>(world.profile, ['versions', join(world.folder, path)]))
    .versions;
}

export function local(world: VersionsWorld, path: string): string {
  return join(world.folder, ...path.split('/'));
}

export function readLocal(world: VersionsWorld, path: string): string {
  return readFileSync(local(world, path), 'utf8');
}

/** Writes a local file with a modification time `ageMs` in the past (the policy `newer` compares them). */
export function writeLocal(world: VersionsWorld, path: string, text: string, ageMs = 0): void {
  writeFileSync(local(world, path), text);
  if (ageMs > 0) {
    const at = new Date(Date.now() - ageMs);
    utimesSync(local(world, path), at, at);
  }
}

/** What the device holds below the pair's folder: path → text ('' for a folder). */
export async function deviceTexts(world: VersionsWorld): Promise<Record<string, string>> {
  const tree = await world.device.remoteTree();
  return Object.fromEntries(
    Object.entries(tree).map(([path, item]) => [path, item.kind === 'file' ? item.text : '']),
  );
}

/**
 * Every file of the folder with its bytes, the versions folder included (the rest of `.mch-sync`
 * aside): what a refused command must leave exactly as it was.
 */
export function snapshot(folder: string): Record<string, string> {
  const found: Record<string, string> = {};
  const visit = (absolute: string): void => {
    for (const name of readdirSync(absolute)) {
      const path = join(absolute, name);
      const inside = relative(folder, path);
      if (inside.startsWith('.mch-sync') && !inside.startsWith(join('.mch-sync', 'versions'))) continue;
      if (statSync(path).isDirectory()) visit(path);
      else found[inside] = readFileSync(path).toString('base64');
    }
  };
  if (existsSync(folder)) visit(folder);
  return found;
}

/** The name the engine gave the conflicted copy of `path` (the one file named so beside it). */
export function conflictedCopyOf(world: VersionsWorld, path: string): string {
  const slash = path.lastIndexOf('/');
  const dir = slash === -1 ? '' : path.slice(0, slash);
  const base = path.slice(slash + 1).replace(/\.[^.]*$/, '');
  const copies = readdirSync(local(world, dir)).filter((name) =>
    name.startsWith(`${base} (conflicted copy `),
  );
  expect(copies, `conflicted copies of ${path}`).toHaveLength(1);
  return dir === '' ? (copies[0] ?? '') : `${dir}/${copies[0] ?? ''}`;
}
