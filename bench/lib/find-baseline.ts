// The baseline the sync pass benches compare with: `find DIR -printf` on the same tree, timed, with its CPU time and a listing.
import { spawnSync } from 'node:child_process';
import { STATE_FOLDER_NAME } from '../../app/model/names.ts';
import { secondsSince } from './timing.ts';

export interface FindRun {
  seconds: number;
  /** User + system CPU seconds of find. */
  cpu: number;
  /** The listing of the tree (inode, size, mtime, path), the engine's state folder left out. */
  output: string;
}

/** The user + system seconds in the second line of the shell's `times` (its children: find). */
function childCpuSeconds(timesOutput: string): number {
  const line = timesOutput.trim().split('\n').at(-1) ?? '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)];
  return parts.reduce((sum, part) => sum + Number(part[1]) * 60 + Number(part[2]), 0);
}

export function runFind(root: string): FindRun {
  const started = process.hrtime.bigint();
  const result = spawnSync('sh', [
    '-c',
    `find "$1" -printf '%i %s %T@ %p\\n' > /dev/null; times`,
    'find',
    root,
  ]);
  const seconds = secondsSince(started);
  if (result.status !== 0) throw new Error(`find failed: ${result.stderr.toString()}`);
  // The listing itself (not timed) shows whether any pass touched the local tree. The engine's own
  // state folder is left out: each new engine probes the file system's name rules in it.
  const listing = spawnSync(
    'find',
    [root, '-path', `${root}/${STATE_FOLDER_NAME}`, '-prune', '-o', '-printf', '%i %s %T@ %p\\n'],
    { maxBuffer: 1 << 30 },
  );
  return { seconds, cpu: childCpuSeconds(result.stdout.toString()), output: listing.stdout.toString() };
}
