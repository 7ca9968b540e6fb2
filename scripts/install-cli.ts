// `npm run install-cli`: installs the `mch-sync` command from the compiled build, with its own Node and production packages.
//
// A checkout's bin/mch-sync.js runs the TypeScript sources through Node's type stripping, which is right
// for development (an edit is never hidden behind an old build) but costs every command its start: the
// installed command runs the compiled JavaScript instead (bin/mch-sync.js picks it where no sources sit
// beside it). Layout, under PREFIX (default ~/.local):
//   lib/mch-sync/{package.json, bin/mch-sync.js, bundle/, dist/{app,common,renderer}, node_modules/, node}
// where bundle/ holds the command's modules in a few chunks (scripts/packaging/cli-bundle.ts) and dist/
// the files they find by path (migrations, native addons, the mount process, the window).
//   bin/mch-sync   a shell script: exec lib/mch-sync/node lib/mch-sync/bin/mch-sync.js "$@"
// The copy is put together beside the old one and swapped in by renames, so a failed install leaves the
// old one whole and the command is never half copied. (A live service started from the old copy keeps
// what it loaded; restart it after an install, as after any upgrade.)
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildApp } from './packaging/build-app.ts';
import { bundleCli } from './packaging/cli-bundle.ts';

const projectDir = fileURLToPath(new URL('..', import.meta.url));
const USAGE = `Usage: npm run install-cli -- [--prefix DIR] [--no-build] [--remove]

Installs the mch-sync command (compiled JavaScript, its production packages and this Node) as
DIR/bin/mch-sync, the files under DIR/lib/mch-sync. DIR is ~/.local by default (its bin/ is on the PATH
of most Linux desktops). --no-build installs the existing build (npm run build); --remove takes both out.`;

/** What of dist/ the command needs: the client, the shared types, and the window `mch-sync ui` serves. */
const DIST_PARTS = ['app', 'common', 'renderer'];
/** One file each part of the build must have made. */
const BUILT = ['dist/app/cli/main.js', 'dist/common/errors.js', 'dist/renderer/index.html'];

/** Skips what only development reads: source maps, declarations, tsc's build info. */
function runtimeFile(source: string): boolean {
  return !/\.(map|d\.ts|tsbuildinfo)$/.test(source);
}

/** The production packages as npm resolved them: each top-level folder of node_modules (nested ones come with it). */
function productionPackages(): string[] {
  const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: projectDir,
    encoding: 'utf8',
  });
  if (listed.status !== 0 && listed.stdout === '') throw new Error(`npm ls failed: ${listed.stderr}`);
  const top = join(projectDir, 'node_modules') + sep;
  return [
    ...new Set(
      listed.stdout
        .split('\n')
        .filter(
          (line) => line.startsWith(top) && !line.slice(top.length).includes(`${sep}node_modules${sep}`),
        )
        .map((line) => relative(projectDir, line)),
    ),
  ];
}

/** A word the shell passes on unchanged: single quotes, a quote inside written as '\''. */
function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

async function copyInto(staging: string): Promise<void> {
  writeFileSync(join(staging, 'package.json'), JSON.stringify(packageJson(), null, 2) + '\n');
  mkdirSync(join(staging, 'bin'));
  cpSync(join(projectDir, 'bin', 'mch-sync.js'), join(staging, 'bin', 'mch-sync.js'));
  for (const part of DIST_PARTS) {
    cpSync(join(projectDir, 'dist', part), join(staging, 'dist', part), {
      recursive: true,
      filter: runtimeFile,
    });
  }
  for (const folder of productionPackages()) {
    cpSync(join(projectDir, folder), join(staging, folder), { recursive: true, verbatimSymlinks: true });
  }
  // The Node that ran the tests and the build (the project pins it): the command must not depend on
  // whichever Node the system has, nor on the checkout staying where it is.
  cpSync(process.execPath, join(staging, 'node'));
  chmodSync(join(staging, 'node'), 0o755);
  await bundleCli(staging);
}

/** The installed package.json: name, version and module type, which the app reads (its version). */
function packageJson(): Record<string, unknown> {
  const own = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  return { name: own['name'], version: own['version'], private: true, type: own['type'] };
}

async function install(prefix: string, build: boolean): Promise<number> {
  if (process.platform === 'win32') {
    console.error('install-cli: Windows is not supported; run the command through npm run sync -- ….');
    return 1;
  }
  if (build && !buildApp(projectDir)) {
    console.error('install-cli: the build failed (see above); nothing installed.');
    return 1;
  }
  const missing = BUILT.filter((path) => !existsSync(join(projectDir, path)));
  if (missing.length > 0) {
    console.error(
      `install-cli: the build is incomplete (no ${missing.join(', ')}); run npm run build first.`,
    );
    return 1;
  }
  const lib = join(prefix, 'lib', 'mch-sync');
  const staging = `${lib}.new-${process.pid}`;
  const old = `${lib}.old-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    await copyInto(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  if (existsSync(lib)) renameSync(lib, old);
  renameSync(staging, lib);
  rmSync(old, { recursive: true, force: true });
  const command = join(prefix, 'bin', 'mch-sync');
  mkdirSync(dirname(command), { recursive: true });
  const script =
    '#!/bin/sh\n# The mch-sync command, installed by npm run install-cli: the compiled client on its own Node.\n' +
    `exec ${shellQuoted(join(lib, 'node'))} ${shellQuoted(join(lib, 'bin', 'mch-sync.js'))} "$@"\n`;
  writeFileSync(`${command}.new`, script, { mode: 0o755 });
  renameSync(`${command}.new`, command);
  console.log(`Installed ${command} (files in ${lib}).`);
  return 0;
}

function remove(prefix: string): number {
  rmSync(join(prefix, 'lib', 'mch-sync'), { recursive: true, force: true });
  rmSync(join(prefix, 'bin', 'mch-sync'), { force: true });
  console.log(`Removed ${join(prefix, 'bin', 'mch-sync')} and ${join(prefix, 'lib', 'mch-sync')}.`);
  return 0;
}

async function main(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        prefix: { type: 'string' },
        'no-build': { type: 'boolean' },
        remove: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`install-cli: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help === true) {
    console.log(USAGE);
    return 0;
  }
  const prefix = resolve(values.prefix ?? join(homedir(), '.local'));
  return values.remove === true ? remove(prefix) : await install(prefix, values['no-build'] !== true);
}

process.exitCode = await main(process.argv.slice(2));
