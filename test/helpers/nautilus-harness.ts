// Drives test/helpers/nautilus-harness.py: a generated nautilus-, nemo- or caja-python extension loaded as its file manager loads it, asked one JSON line at a time.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { FILE_MANAGER_TYPELIBS, HELPER_DIR, SYSTEM_PYTHON, type HarnessFileManager } from './python-gi.ts';

export type Selected = { path: string } | { uri: string } | { uri_only: string };

export interface MenuEntry {
  name: string;
  label: string;
  tip: string;
}

export interface Shown {
  emblems: Record<string, string[] | null>;
  invalidated: Record<string, number>;
  /** Every set of emblems each item was drawn with, in order. */
  history: Record<string, string[][]>;
}

export class NautilusHarness {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: Interface;
  readonly #answers: Array<(line: string) => void> = [];
  #stderr = '';

  /** Loads `extension` into Nautilus 4.0, or into the file manager named (Nemo 3.0, Caja 2.0). */
  constructor(
    extension: string,
    env: NodeJS.ProcessEnv = process.env,
    fileManager: HarnessFileManager = 'nautilus',
  ) {
    const { namespace, version } = FILE_MANAGER_TYPELIBS[fileManager];
    const script = join(HELPER_DIR, 'nautilus-harness.py');
    this.#child = spawn(SYSTEM_PYTHON, [script, extension, namespace, version], { env });
    this.#child.stderr.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString()));
    this.#lines = createInterface({ input: this.#child.stdout });
    this.#lines.on('line', (line) => this.#answers.shift()?.(line));
  }

  /** What the extension and the harness wrote to stderr so far (the file manager's log). */
  get stderr(): string {
    return this.#stderr;
  }

  ask<T>(request: object): Promise<T> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null): void =>
        reject(new Error(`the harness ended (${code}):\n${this.#stderr}`));
      this.#child.once('exit', onExit);
      this.#answers.push((line) => {
        this.#child.off('exit', onExit);
        resolve(JSON.parse(line) as T);
      });
      this.#child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  async items(selection: Selected[], api: 3 | 4 = 4): Promise<MenuEntry[]> {
    return (await this.ask<{ items: MenuEntry[] }>({ items: selection, api })).items;
  }

  async labels(paths: string[]): Promise<string[]> {
    return (await this.items(paths.map((path) => ({ path })))).map((item) => item.label);
  }

  /** The items shown as the file manager shows a folder: update_file_info on each; their emblems and the time taken. */
  show(paths: string[]): Promise<{ emblems: Record<string, string[]>; seconds: number }> {
    return this.ask({ show: paths });
  }

  /** What the items shown carry now, after the invalidations the extension made (nothing asked). */
  shown(paths: string[]): Promise<Shown> {
    return this.ask({ shown: paths });
  }

  /** Activates the menu entry with this label for a selection. */
  async activate(label: string, paths: string[]): Promise<void> {
    await this.ask({ activate_label: label, items: paths.map((path) => ({ path })) });
  }

  close(): void {
    this.#lines.close();
    this.#child.stdin.end();
    this.#child.kill();
  }
}
