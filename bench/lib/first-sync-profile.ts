// `--cpu-prof` profiles of the first-sync benches: one run in a profiled child, its engine pass summed by part and by function.
//
// The bench starts itself again under `node --cpu-prof` with one run; that child writes the window of
// its engine pass (`pass-window.<pid>.json`, µs on the profile's clock) so the plain side and the set-up
// are left out. The parent then prints where the pass's samples fall: by part of the client
// (profile-summary.ts) and by function, self time, the most first.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summariseProfiles, type CpuProfile, type ProfileNode } from './profile-summary.ts';

/** Set in the profiled child: the folder its profile and window go to. */
export const PROFILE_CHILD_ENV = 'BENCH_FIRST_SYNC_PROFILE_CHILD';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The folder a profiled child writes to, or undefined in an ordinary run. */
export function profileChildDir(): string | undefined {
  return process.env[PROFILE_CHILD_ENV];
}

/** A stopwatch for the measured pass in a profiled child; calling the result records its window. */
export function passWindow(dir: string | undefined): () => void {
  const started = process.hrtime.bigint() / 1000n;
  return () => {
    if (dir === undefined) return;
    const ended = process.hrtime.bigint() / 1000n;
    writeFileSync(
      join(dir, `pass-window.${process.pid}.json`),
      JSON.stringify([Number(started), Number(ended)]),
    );
  };
}

/** Runs `benchFile` once more under `--cpu-prof` with `env` (one run), then prints its engine pass's profile. */
export function profileOnce(benchFile: string, dir: string, env: NodeJS.ProcessEnv, files: number): void {
  mkdirSync(dir, { recursive: true });
  const child = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, benchFile], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env, [PROFILE_CHILD_ENV]: dir },
  });
  if (child.status !== 0) throw new Error(`the profiled run failed (${String(child.status)})`);
  const { profiles, parts } = summariseProfiles(dir);
  console.log(`\nProfile of the engine pass (${profiles} profile(s) in ${dir}), ms by part:`);
  for (const [part, ms] of [...parts].sort(([, a], [, b]) => b - a)) {
    console.log(
      `  ${ms.toFixed(0).padStart(7)} ms  ${((ms / files) * 1000).toFixed(1).padStart(6)} µs/file  ${part}`,
    );
  }
  console.log('\nSelf time by function (top 30):');
  for (const { ms, name } of selfTimes(dir).slice(0, 30)) {
    console.log(
      `  ${ms.toFixed(0).padStart(7)} ms  ${((ms / files) * 1000).toFixed(1).padStart(6)} µs/file  ${name}`,
    );
  }
}

/** Self time by function over the windows of the profiles in `dir`, the most first. */
export function selfTimes(dir: string): Array<{ ms: number; name: string }> {
  const byName = new Map<string, number>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    let window: [number, number];
    try {
      window = JSON.parse(
        readFileSync(join(dir, `pass-window.${file.split('.')[3] ?? ''}.json`), 'utf8'),
      ) as [number, number];
    } catch {
      continue;
    }
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const nodes = new Map<number, ProfileNode>(profile.nodes.map((node) => [node.id, node]));
    let at = profile.startTime;
    profile.samples.forEach((id, sample) => {
      at += profile.timeDeltas[sample] ?? 0;
      if (at < window[0] || at > window[1]) return;
      const frame = (nodes.get(id) as ProfileNode).callFrame;
      const where = frame.url === '' ? '' : ` ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
      const name = `${frame.functionName || '(anonymous)'}${where}`;
      byName.set(name, (byName.get(name) ?? 0) + (profile.timeDeltas[sample + 1] ?? 0) / 1000);
    });
  }
  return [...byName].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

/** Profile URLs are file URLs for modules (shown from the project's root), bare names for Node's own. */
function shortUrl(url: string): string {
  return url.startsWith('file://') ? relative(root, fileURLToPath(url)) : url;
}
