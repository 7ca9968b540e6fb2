// Runs Debian's /usr/bin/python3 (the one with PyGObject) for the tests of the file-manager entries.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's python, which has `gi`; the python first in PATH may be another one without it. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/** The python helpers next to this file. */
export const HELPER_DIR = import.meta.dirname;

export interface PythonRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `script` (a file, or `-c` code when `code` is set) with arguments, to its end. */
export function runPython(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): PythonRun {
  const result = spawnSync(SYSTEM_PYTHON, args, {
    env: options.env ?? process.env,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 30_000,
  });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs python code and parses what it printed as JSON; fails the test with python's stderr otherwise. */
export function pythonJson<T>(code: string, args: readonly string[] = [], env?: NodeJS.ProcessEnv): T {
  const run = runPython(['-c', code, ...args], env === undefined ? {} : { env });
  if (run.status !== 0) throw new Error(`python failed (${run.status}):\n${run.stderr}\n${run.stdout}`);
  return JSON.parse(run.stdout) as T;
}

/** The file managers whose python binding the tests load an extension into. */
export type HarnessFileManager = 'nautilus' | 'nemo' | 'caja';

/** Each one's introspection namespace and version, as its binding loads it, and the Debian package with it. */
export const FILE_MANAGER_TYPELIBS: Record<
  HarnessFileManager,
  { namespace: string; version: string; debianPackage: string }
> = {
  nautilus: { namespace: 'Nautilus', version: '4.0', debianPackage: 'gir1.2-nautilus-4.0' },
  nemo: { namespace: 'Nemo', version: '3.0', debianPackage: 'gir1.2-nemo-3.0' },
  caja: { namespace: 'Caja', version: '2.0', debianPackage: 'gir1.2-caja-2.0' },
};

/**
 * Why the tests that need PyGObject (and, with `nautilus` or `fileManager`, that file manager's
 * introspection data) cannot run here, or undefined when they can. `.ci/run` installs them all.
 */
export function missingGi(
  options: { nautilus?: boolean; fileManager?: HarnessFileManager } = {},
): string | undefined {
  if (!existsSync(SYSTEM_PYTHON)) return `${SYSTEM_PYTHON} is not installed (Debian package python3)`;
  if (runPython(['-c', 'import gi']).status !== 0)
    return `${SYSTEM_PYTHON} has no gi (Debian package python3-gi)`;
  const fileManager = options.fileManager ?? (options.nautilus === true ? 'nautilus' : undefined);
  if (fileManager === undefined) return undefined;
  const { namespace, version, debianPackage } = FILE_MANAGER_TYPELIBS[fileManager];
  const typelib = `${namespace}-${version}.typelib`;
  return typelibExists(typelib) ? undefined : `${typelib} is not installed (Debian package ${debianPackage})`;
}

function typelibExists(typelib: string): boolean {
  const roots = ['/usr/lib', '/usr/lib64'];
  const dirs = roots.flatMap((root) => {
    const arch = existsSync(root) ? readdirSync(root).map((name) => join(root, name)) : [];
    return [root, ...arch].map((dir) => join(dir, 'girepository-1.0'));
  });
  return dirs.some((dir) => existsSync(join(dir, typelib)));
}
