// Where a child's main thread spent given windows of time, read from its `node --cpu-prof` profile: self time by function and by source file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CpuProfile, ProfileNode } from './profile-summary.ts';

export interface WindowProfile {
  /** Sampled ms inside the windows, all parts. */
  totalMs: number;
  /** Self ms by `function (file:line)`, largest first. */
  functions: Array<[string, number]>;
  /** Self ms by source file (or V8's own entries: idle, GC, program), largest first. */
  files: Array<[string, number]>;
  /** Ms with a frame of the given file anywhere on the stack (inclusive), by file. */
  inclusive: Map<string, number>;
}

/**
 * Reads the profile node wrote for `pid` in `dir` (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile)
 * and keeps the samples taken inside `windows` ([start, end] in µs on CLOCK_MONOTONIC).
 */
export function profileWindows(
  dir: string,
  pid: number,
  windows: ReadonlyArray<[number, number]>,
  inclusiveOf: readonly string[] = [],
): WindowProfile | undefined {
  const file = readdirSync(dir).find(
    (name) => name.endsWith('.cpuprofile') && name.split('.')[3] === String(pid),
  );
  if (file === undefined) return undefined;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const sorted = [...windows].sort((a, b) => a[0] - b[0]);
  const inside = (at: number): boolean => sorted.some(([start, end]) => at >= start && at <= end);
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalMs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, sample) => {
    at += profile.timeDeltas[sample] ?? 0;
    if (!inside(at)) return;
    // Sample i stands for the time to the next one.
    const ms = (profile.timeDeltas[sample + 1] ?? 0) / 1000;
    const node = nodes.get(id) as ProfileNode;
    const url = shortUrl(node.callFrame.url);
    const name = `${node.callFrame.functionName || '(anonymous)'} (${url}:${node.callFrame.lineNumber + 1})`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const where = url === '' ? node.callFrame.functionName : url;
    files.set(where, (files.get(where) ?? 0) + ms);
    const seen = new Set<string>();
    for (let up: number | undefined = id; up !== undefined; up = parents.get(up)) {
      const upUrl = nodes.get(up)?.callFrame.url ?? '';
      for (const wanted of inclusiveOf) {
        if (!seen.has(wanted) && upUrl.endsWith(wanted)) {
          seen.add(wanted);
          inclusive.set(wanted, (inclusive.get(wanted) ?? 0) + ms);
        }
      }
    }
    totalMs += ms;
  });
  const largest = (map: Map<string, number>): Array<[string, number]> => [...map].sort((a, b) => b[1] - a[1]);
  return { totalMs, functions: largest(functions), files: largest(files), inclusive };
}

function shortUrl(url: string): string {
  const at = url.search(/\/(app|common|node_modules)\//);
  return at >= 0 ? url.slice(at + 1) : url.replace(/^node:/, 'node:');
}
