// Where a pass's main-thread time goes, read from `node --cpu-prof` profiles: samples inside the pass's window, by the part of the client they fall in.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A node of a `--cpu-prof` profile: one function at one place in the call tree. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** A `--cpu-prof` profile as V8 writes it. */
export interface CpuProfile {
  nodes: ProfileNode[];
  /** µs on CLOCK_MONOTONIC, the clock of process.hrtime and of python's time.perf_counter on Linux. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A sample's part: the first frame from the leaf up whose source matches (the order matters). */
const PARTS: ReadonlyArray<[string, RegExp]> = [
  ['selective sync: the record read', /\/app\/profile\/pair-selection\.ts/],
  ['selective sync: selection step, walk hooks', /\/app\/sync\/selection\//],
  ['quiet check', /\/app\/sync\/pass\/(quiet|settled)/],
  ['local scan', /\/app\/sync\/local\/|\/app\/model\/folder-digest/],
  ['remote walk and HTTP', /\/app\/sync\/remote\/|\/app\/api\//],
  ['index (SQLite)', /\/app\/index\//],
  ['rest of the engine (guards, recovery, records)', /\/app\//],
];

/** Mean ms per profile of each part, over the profiles in `dir` that have a `pass-window.<pid>.json`. */
export function summariseProfiles(dir: string): { profiles: number; parts: Map<string, number> } {
  const parts = new Map<string, number>();
  let profiles = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    // node names them CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile
    const windowFile = join(dir, `pass-window.${file.split('.')[3] ?? ''}.json`);
    let window: [number, number];
    try {
      window = JSON.parse(readFileSync(windowFile, 'utf8')) as [number, number];
    } catch {
      continue; // not a measured process
    }
    profiles += 1;
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
    const partOf = (leaf: ProfileNode): string => {
      if (leaf.callFrame.functionName === '(idle)') return 'idle (waiting for the device)';
      if (leaf.callFrame.functionName === '(garbage collector)') return 'garbage collector';
      for (let at: number | undefined = leaf.id; at !== undefined; at = parents.get(at)) {
        const url = nodes.get(at)?.callFrame.url ?? '';
        const part = PARTS.find(([, pattern]) => pattern.test(url));
        if (part !== undefined) return part[0];
      }
      return 'Node itself (no frame of the client)';
    };
    // Sample i is taken at startTime + the deltas up to i, and stands for the time to the next one.
    let at = profile.startTime;
    profile.samples.forEach((id, sample) => {
      at += profile.timeDeltas[sample] ?? 0;
      if (at < window[0] || at > window[1]) return;
      const part = partOf(nodes.get(id) as ProfileNode);
      parts.set(part, (parts.get(part) ?? 0) + (profile.timeDeltas[sample + 1] ?? 0) / 1000);
    });
  }
  for (const [part, ms] of parts) parts.set(part, ms / Math.max(1, profiles));
  return { profiles, parts };
}
