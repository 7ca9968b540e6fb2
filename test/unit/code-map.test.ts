// The shape of the code a reader relies on: imports run one way (no circles, type-only imports too), small folders, files and engine functions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  circlePath,
  importCircles,
  importsOf,
  readImportGraph,
  sourceFilesIn,
  type ImportGraph,
} from '../helpers/import-graph.ts';

const root = join(import.meta.dirname, '..', '..');
/** The runtime folders: what ships. Tests and benchmarks may share helpers as they like. */
const RUNTIME_FOLDERS = ['app', 'device', 'common', 'renderer', 'main'];
const files = sourceFilesIn(root, RUNTIME_FOLDERS);
const graph = readImportGraph(root, files);

/** Most folders stay well below; past this a folder needs rooms of its own (issue 28). */
const MAX_FILES_PER_FOLDER = 15;
const MAX_FILE_LINES = 400;
/** In the sync engine a function is one named step; past this it holds a whole story. */
const MAX_ENGINE_FUNCTION_LINES = 80;

/** Lines as `wc -l` counts them: a file's last newline ends a line, it does not start one. */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function describeCircles(of: ImportGraph): string[] {
  return importCircles(of).map((circle) => circlePath(of, circle).join(' → '));
}

/** The graph with one file's text replaced, as if someone had edited it. */
function withEditedFile(file: string, edit: (text: string) => string): ImportGraph {
  const known = new Set(files);
  const edited = new Map(graph);
  const text = edit(readFileSync(join(root, file), 'utf8'));
  edited.set(
    file,
    importsOf(file, text, (candidate) => known.has(candidate)),
  );
  return edited;
}

describe('import circles', () => {
  it('reads the imports of the runtime folders', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(graph.get('app/sync/engine.ts')).toContain('app/sync/engine-options.ts');
  });

  it('finds no circle between files of app/, device/, common/, renderer/ and main/', () => {
    expect(describeCircles(graph)).toEqual([]);
  });

  it('counts a type-only import that closes a circle (the test of the test)', () => {
    // engine.ts imports the planner (through its rooms); the planner naming the engine back is a circle.
    const edited = withEditedFile(
      'app/sync/plan/operations.ts',
      (text) => `${text}\nimport type { SyncEngine } from '../engine.ts';\n`,
    );
    const circles = describeCircles(edited);
    expect(circles).toHaveLength(1);
    expect(circles[0]).toContain('app/sync/plan/operations.ts → app/sync/engine.ts');
  });

  it('counts re-exports and dynamic imports as imports', () => {
    const known = new Set(['a/x.ts', 'a/y.ts', 'a/z.tsx']);
    const found = importsOf(
      'a/x.ts',
      "export type { Y } from './y.js';\nconst z = await import('./z.tsx');\nimport 'node:fs';\n",
      (candidate) => known.has(candidate),
    );
    expect(found).toEqual(['a/y.ts', 'a/z.tsx']);
    expect(
      importCircles(
        new Map([
          ['a/x.ts', ['a/y.ts']],
          ['a/y.ts', ['a/x.ts']],
          ['a/z.tsx', ['a/z.tsx']],
        ]),
      ),
    ).toEqual([['a/x.ts', 'a/y.ts'], ['a/z.tsx']]);
  });
});

describe('one way down', () => {
  it('lets nothing but the command line import the command line (app/cli/)', () => {
    const upward = [...graph]
      .filter(([file]) => !file.startsWith('app/cli/'))
      .flatMap(([file, targets]) =>
        targets.filter((target) => target.startsWith('app/cli/')).map((t) => `${file} → ${t}`),
      );
    expect(upward).toEqual([]);
  });

  it('keeps the folders of app/ in one order: no two of them import each other, even through others', () => {
    const folderOf = (file: string): string => file.split('/').slice(0, 2).join('/');
    const folders = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      if (!file.startsWith('app/') || !file.slice(4).includes('/')) continue;
      const from = folderOf(file);
      const edges = folders.get(from) ?? [];
      for (const target of targets) {
        const to = folderOf(target);
        if (
          target.startsWith('app/') &&
          target.slice(4).includes('/') &&
          to !== from &&
          !edges.includes(to)
        ) {
          edges.push(to);
        }
      }
      folders.set(from, edges);
    }
    expect(folders.size).toBeGreaterThan(15);
    expect(importCircles(folders).map((circle) => circlePath(folders, circle).join(' → '))).toEqual([]);
  });

  it("imports downwards in app/README.md's table of folders (the map a reader is given is the true one)", () => {
    const order = [
      ...readFileSync(join(root, 'app', 'README.md'), 'utf8').matchAll(/^\| \[`([a-z/-]+)\/`\]/gm),
    ].map((match) => `app/${match[1]}`);
    const folderOf = (file: string): string | undefined =>
      order.filter((folder) => file.startsWith(`${folder}/`)).sort((a, b) => b.length - a.length)[0];
    const unlisted = new Set(
      files.filter((f) => /^app\/.+\//.test(f) && folderOf(f) === undefined).map(folderOf),
    );
    expect(unlisted.size, 'every folder of app/ with source files has its row').toBe(0);
    // The sync engine's rooms use the leaf files beside engine.ts (its options, events, report), never engine.ts.
    const allowedUpward = (target: string): boolean =>
      /^app\/sync\/[^/]+\.ts$/.test(target) && target !== 'app/sync/engine.ts';
    const upward = [...graph]
      .filter(([file]) => folderOf(file) !== undefined)
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => {
            const [from, to] = [folderOf(file)!, folderOf(target)];
            return (
              to !== undefined &&
              to !== from &&
              order.indexOf(to) < order.indexOf(from) &&
              !allowedUpward(target)
            );
          })
          .map((target) => `${file} → ${target}`),
      );
    expect(order.length).toBeGreaterThan(20);
    expect(upward).toEqual([]);
  });

  it('lets no room of the sync engine import the engine facade (app/sync/engine.ts)', () => {
    const back = [...graph]
      .filter(([file]) => /^app\/sync\/[^/]+\//.test(file))
      .flatMap(([file, targets]) =>
        targets.filter((target) => target === 'app/sync/engine.ts').map(() => file),
      );
    expect(back).toEqual([]);
  });
});

describe('sizes a reader can hold', () => {
  it(`keeps at most ${MAX_FILES_PER_FOLDER} source files directly in any folder of app/`, () => {
    const perFolder = new Map<string, number>();
    for (const file of files.filter((name) => name.startsWith('app/'))) {
      const folder = file.slice(0, file.lastIndexOf('/'));
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    }
    const crowded = [...perFolder]
      .filter(([, count]) => count > MAX_FILES_PER_FOLDER)
      .map(([f, n]) => `${f}: ${n}`);
    expect(crowded).toEqual([]);
  });

  it(`keeps every source file under ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file, lines: lineCount(readFileSync(join(root, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });

  it(`keeps every function of app/sync/ under ${MAX_ENGINE_FUNCTION_LINES} lines`, () => {
    const long: string[] = [];
    for (const file of files.filter((name) => name.startsWith('app/sync/'))) {
      const source = ts.createSourceFile(
        file,
        readFileSync(join(root, file), 'utf8'),
        ts.ScriptTarget.Latest,
        true,
      );
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
          const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
          if (last - first + 1 > MAX_ENGINE_FUNCTION_LINES) {
            const name =
              'name' in node && node.name !== undefined ? node.name.getText(source) : '(anonymous)';
            long.push(`${file}:${first + 1} ${name}: ${last - first + 1} lines`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
