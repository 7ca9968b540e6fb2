// Reads the import graph of the source tree (type-only imports included) and finds its circles.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** File (relative to the root, with `/`) to the files it imports, in the order it names them. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Every .ts and .tsx file below the given folders of `root`. */
export function sourceFilesIn(root: string, folders: readonly string[]): string[] {
  return folders.flatMap((folder) => {
    const path = join(root, folder);
    if (!existsSync(path)) return [];
    return readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
      .filter((file) => !file.split('/').includes('node_modules'))
      .sort();
  });
}

/**
 * The relative imports of one file's text, static, re-exported and dynamic alike, resolved to files.
 * TypeScript's own pre-processor reads them, so `import type` and `export type … from` count too.
 */
export function importsOf(file: string, text: string, exists: (file: string) => boolean): string[] {
  const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((ref) => ref.fileName);
  const found: string[] = [];
  for (const specifier of specifiers) {
    if (!specifier.startsWith('.')) continue;
    const target = resolveRelative(file, specifier, exists);
    if (target !== undefined && !found.includes(target)) found.push(target);
  }
  return found;
}

function resolveRelative(
  file: string,
  specifier: string,
  exists: (file: string) => boolean,
): string | undefined {
  const base = join(dirname(file), specifier).split('\\').join('/');
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.jsx?$/, '.tsx'), `${base}.ts`];
  return candidates.find(exists);
}

/** The import graph of the given files, read from `root`. */
export function readImportGraph(root: string, files: readonly string[]): ImportGraph {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    graph.set(
      file,
      importsOf(file, text, (candidate) => known.has(candidate)),
    );
  }
  return graph;
}

/**
 * The strongly connected components of more than one file (or one file importing itself): each is a
 * set of files that import each other around a circle. Tarjan's algorithm, iterative so a deep chain
 * of imports cannot overflow the stack.
 */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++]!;
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfImport) circles.push(component.sort());
    }
  }
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One shortest path of imports from `from` back to itself inside a circle: what a reader would follow. */
export function circlePath(graph: ImportGraph, circle: readonly string[]): string[] {
  const members = new Set(circle);
  const from = circle[0]!;
  const previous = new Map<string, string>();
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === from) {
        const path = [from];
        for (
          let step: string | undefined = node;
          step !== undefined && step !== from;
          step = previous.get(step)
        ) {
          path.splice(1, 0, step);
        }
        return [...path, from];
      }
      if (previous.has(target)) continue;
      previous.set(target, node);
      queue.push(target);
    }
  }
  return [...circle];
}
