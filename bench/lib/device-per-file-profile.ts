// Self time by function of a device `--cpu-prof` profile, inside the time windows of the bench's phases.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CpuProfile, ProfileNode } from './profile-summary.ts';

/** A phase of the bench: its name and its window in µs of the monotonic clock (process.hrtime). */
export interface PhaseWindow {
  name: string;
  startUs: number;
  endUs: number;
}

/** The name of a profile frame, short: function and file:line below the repository. */
function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*\/(device|node_modules|common)\//, '$1/').replace(/^node:/, '');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

/**
 * For each phase, the `top` functions by self time in ms per file (`files` per phase), and the total.
 * Every profile in `dir` counts (the device is the only profiled process).
 */
export function summariseDeviceProfile(
  dir: string,
  phases: readonly PhaseWindow[],
  files: number,
  top = 15,
): string {
  const lines: string[] = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const byPhase = new Map<string, Map<string, number>>(phases.map((phase) => [phase.name, new Map()]));
    let at = profile.startTime;
    profile.samples.forEach((id, sample) => {
      at += profile.timeDeltas[sample] ?? 0;
      const phase = phases.find((window) => at >= window.startUs && at <= window.endUs);
      if (!phase) return;
      const node = nodes.get(id) as ProfileNode;
      if (node.callFrame.functionName === '(idle)') return;
      const counts = byPhase.get(phase.name) as Map<string, number>;
      const name = frameName(node);
      counts.set(name, (counts.get(name) ?? 0) + (profile.timeDeltas[sample + 1] ?? 0) / 1000);
    });
    for (const [phase, counts] of byPhase) {
      const total = [...counts.values()].reduce((sum, ms) => sum + ms, 0);
      lines.push(`\n${phase}: ${(total / files).toFixed(3)} ms sampled per file; top self time per file:`);
      for (const [name, ms] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, top)) {
        lines.push(`  ${(ms / files).toFixed(3)} ms  ${name}`);
      }
    }
  }
  return lines.join('\n');
}
