// The OS resources in build/: the Linux desktop entry, the Windows installer's Explorer verbs, the Finder Quick Action.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getConfig } from 'app-builder-lib/out/util/config/config.js';
import { afterEach, describe, expect, it } from 'vitest';

const projectDir = join(import.meta.dirname, '..', '..', '..');
const buildDir = join(projectDir, 'build');
const workflow = join(buildDir, 'macos', 'Copy Share Link.workflow', 'Contents');
const config = await getConfig(projectDir, 'electron-builder.yml', null);
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mch-build-resources-'));
  folders.push(folder);
  return folder;
}

function run(command: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A plist as JSON, parsed by Python's plistlib (the same format rules as macOS's own parser). */
function readPlist(file: string): Record<string, unknown> {
  const script = 'import json,plistlib,sys; print(json.dumps(plistlib.load(open(sys.argv[1],"rb"))))';
  const result = run('/usr/bin/python3', ['-c', script, file]);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('the Linux desktop entry', () => {
  it('passes desktop-file-validate', () => {
    const result = run('desktop-file-validate', [join(buildDir, 'linux', 'mch-sync.desktop')]);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('is one that desktop-file-validate would reject when broken', () => {
    const broken = join(tempFolder(), 'broken.desktop');
    writeFileSync(
      broken,
      readFileSync(join(buildDir, 'linux', 'mch-sync.desktop'), 'utf8').replace('Type=Application\n', ''),
    );
    expect(run('desktop-file-validate', [broken]).status).not.toBe(0);
  });
});

describe('build/installer.nsh', () => {
  const harness = (folder: string): string => {
    const file = join(folder, 'harness.nsi');
    writeFileSync(
      file,
      [
        'Unicode true',
        'RequestExecutionLevel user',
        // electron-builder defines this in its own script before including ours.
        '!define APP_EXECUTABLE_FILENAME "MCH Sync.exe"',
        `!include "${join(buildDir, 'installer.nsh')}"`,
        'Name "installer.nsh harness"',
        `OutFile "${join(folder, 'harness.exe')}"`,
        'InstallDir "$LOCALAPPDATA\\Programs\\mch-sync"',
        'Section "install"',
        '  !insertmacro customInstall',
        '  WriteUninstaller "$INSTDIR\\uninstall.exe"',
        'SectionEnd',
        'Section "uninstall"',
        '  !insertmacro customUnInstall',
        'SectionEnd',
        '',
      ].join('\n'),
    );
    return file;
  };

  it('compiles with makensis, warnings as errors', () => {
    const folder = tempFolder();
    const result = run('makensis', ['-WX', '-V2', harness(folder)]);
    expect(result.stderr + result.stdout).not.toMatch(/warning|error/i);
    expect(result.status).toBe(0);
  });

  it('writes the per-user verbs for files and folders, and removes exactly those', () => {
    // -PPO prints the script after the preprocessor: the macros expanded, the defines substituted.
    const lines = run('makensis', ['-PPO', harness(tempFolder())])
      .stdout.split('\n')
      .map((line) => line.trim());
    const install = lines.slice(lines.indexOf('Section "install"'), lines.indexOf('SectionEnd'));
    const uninstall = lines.slice(lines.indexOf('Section "uninstall"'));
    for (const root of ['*', 'Directory']) {
      const key = `"Software\\Classes\\${root}\\shell\\MchSync.CopyShareLink"`;
      expect(install).toContain(`WriteRegStr HKCU ${key} "MUIVerb" "Copy share link"`);
      expect(install).toContain(`WriteRegStr HKCU ${key} "Icon" '"$INSTDIR\\MCH Sync.exe",0'`);
      expect(install).toContain(
        `WriteRegStr HKCU ${key.slice(0, -1)}\\command" "" '"$INSTDIR\\MCH Sync.exe" --share "%1"'`,
      );
      expect(uninstall).toContain(`DeleteRegKey HKCU ${key}`);
    }
    expect(
      install.filter((line) => line.startsWith('WriteReg')).every((line) => line.includes(' HKCU ')),
    ).toBe(true);
    expect(uninstall.filter((line) => line.startsWith('DeleteRegKey'))).toHaveLength(2);
  });
});

describe('the Finder Quick Action', () => {
  it('offers "Copy Share Link" for any item in Finder', () => {
    const info = readPlist(join(workflow, 'Info.plist'));
    expect(info['NSServices']).toEqual([
      expect.objectContaining({
        NSMenuItem: { default: 'Copy Share Link' },
        NSMessage: 'runWorkflowAsService',
        NSRequiredContext: { NSApplicationIdentifier: 'com.apple.finder' },
        NSSendFileTypes: ['public.item'],
      }),
    ]);
  });

  type Action = { action: { BundleIdentifier: string; ActionParameters: Record<string, unknown> } };
  const document = readPlist(join(workflow, 'document.wflow'));
  const actions = document['actions'] as Action[];
  const command = String(actions[0]?.action.ActionParameters['COMMAND_STRING']);

  it('is a Finder service taking files and folders, running one shell script with them as arguments', () => {
    expect(document['workflowMetaData']).toMatchObject({
      workflowTypeIdentifier: 'com.apple.Automator.servicesMenu',
      serviceInputTypeIdentifier: 'com.apple.Automator.fileSystemObject',
      serviceOutputTypeIdentifier: 'com.apple.Automator.nothing',
      serviceApplicationBundleID: 'com.apple.finder',
    });
    expect(actions).toHaveLength(1);
    expect(actions[0]?.action.BundleIdentifier).toBe('com.apple.RunShellScript');
    // inputMethod 1: the selection as arguments ("$@"), not on stdin.
    expect(actions[0]?.action.ActionParameters).toMatchObject({ inputMethod: 1, shell: '/bin/bash' });
  });

  it('starts this app (by its appId) with --share and every selected path intact', () => {
    const folder = tempFolder();
    const record = join(folder, 'open-args');
    // A stand-in for macOS's open(1) that records its arguments, one per line.
    writeFileSync(join(folder, 'open'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\n`);
    chmodSync(join(folder, 'open'), 0o755);
    const paths = [
      '/Users/ann/MyCloud/two words.txt',
      '/Users/ann/MyCloud/"quoted" $HOME',
      '/Users/ann/MyCloud/Été/日本.pdf',
    ];
    const result = spawnSync('/bin/bash', ['-c', command, 'bash', ...paths], {
      env: { PATH: `${folder}:/usr/bin:/bin` },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(readFileSync(record, 'utf8').split('\n').slice(0, -1)).toEqual([
      '-n',
      '-b',
      config.appId,
      '--args',
      '--share',
      ...paths,
    ]);
  });
});
