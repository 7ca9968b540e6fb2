// The peers bench's figures and their report: one comparison per case (rclone bisync as the baseline), then one summary table of every case.
import type { PassFigures } from './peer-process.ts';
import { printComparison } from './report.ts';
import { median } from './timing.ts';

export const OURS = 'mch-sync';
export const UNISON = 'unison';
export const RCLONE = 'rclone bisync';

/** A case of the bench: what it is called, and whether its figures count per file (a first sync). */
export interface PeerCase {
  title: string;
  perFile: boolean;
}

/** Every pass of every case: case title → tool name → one figure per run. */
export class PeerFigures {
  readonly #cases = new Map<PeerCase, Map<string, PassFigures[]>>();

  add(peerCase: PeerCase, tool: string, figures: PassFigures): void {
    const byTool = this.#cases.get(peerCase) ?? new Map<string, PassFigures[]>();
    byTool.set(tool, [...(byTool.get(tool) ?? []), figures]);
    this.#cases.set(peerCase, byTool);
  }

  /** The medians of one tool in one case. */
  medians(peerCase: PeerCase, tool: string): PassFigures {
    const runs = this.#cases.get(peerCase)?.get(tool) ?? [];
    if (runs.length === 0) throw new Error(`no figures of ${tool} for ${peerCase.title}`);
    return {
      seconds: median(runs.map((run) => run.seconds)),
      cpu: median(runs.map((run) => run.cpu)),
      serverCpu: median(runs.map((run) => run.serverCpu)),
    };
  }

  cases(): PeerCase[] {
    return [...this.#cases.keys()];
  }
}

/** CPU per file in ms (a first sync) or CPU seconds of the pass: client, then its server. */
function describeCpu(peerCase: PeerCase, figures: PassFigures, files: number, server: string): string {
  if (peerCase.perFile) {
    const perFile = (seconds: number): string => `${((seconds * 1000) / files).toFixed(2)} ms`;
    return `CPU per file: client ${perFile(figures.cpu)}, ${server} ${perFile(figures.serverCpu)}`;
  }
  return `CPU: client ${figures.cpu.toFixed(2)} s, ${server} ${figures.serverCpu.toFixed(2)} s`;
}

const SERVERS: Record<string, string> = { [OURS]: 'device', [UNISON]: 'server', [RCLONE]: 'sftp server' };

/** A peer's time ÷ ours: above 1, ours was faster. */
function speedRatio(peer: PassFigures, ours: PassFigures): string {
  return (peer.seconds / ours.seconds).toFixed(2);
}

/** Prints each case as a comparison with rclone bisync, then the table for docs/benchmarks.md. */
export function printPeerReport(figures: PeerFigures, files: number, runs: number): void {
  for (const peerCase of figures.cases()) {
    const row = (tool: string): { name: string; rate: number; unit: string; detail: string } => {
      const m = figures.medians(peerCase, tool);
      return {
        name: tool,
        rate: peerCase.perFile ? files / m.seconds : 60 / m.seconds,
        unit: peerCase.perFile ? 'files/s' : 'passes/min',
        detail: `${m.seconds.toFixed(2)} s; ${describeCpu(peerCase, m, files, SERVERS[tool] ?? 'server')}`,
      };
    };
    const ours = row(OURS);
    const oursVsUnison = speedRatio(figures.medians(peerCase, UNISON), figures.medians(peerCase, OURS));
    printComparison(
      `${peerCase.title} (median of ${runs} runs; ratio: speed relative to rclone bisync, above 1 faster)`,
      row(RCLONE),
      [row(UNISON), { ...ours, detail: `${ours.detail}; ours vs unison ${oursVsUnison}` }],
    );
  }
  console.log(
    `\nAgainst peers, ${files} files (median of ${runs} runs; "vs": the peer's wall time ÷ ours, above 1: ours faster)`,
  );
  console.log(
    '| case | mch-sync | unison | rclone bisync | ours vs unison | ours vs rclone | CPU (mch-sync + device / unison + server / rclone + sftp server) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const peerCase of figures.cases()) {
    const [ours, unison, rclone] = [OURS, UNISON, RCLONE].map((tool) => figures.medians(peerCase, tool)) as [
      PassFigures,
      PassFigures,
      PassFigures,
    ];
    const cpu = [ours, unison, rclone]
      .map((m) =>
        peerCase.perFile
          ? `${((m.cpu * 1000) / files).toFixed(2)} + ${((m.serverCpu * 1000) / files).toFixed(2)}`
          : `${m.cpu.toFixed(2)} + ${m.serverCpu.toFixed(2)}`,
      )
      .join(' / ');
    console.log(
      `| ${peerCase.title} | ${ours.seconds.toFixed(2)} s | ${unison.seconds.toFixed(2)} s | ${rclone.seconds.toFixed(2)} s | ${speedRatio(unison, ours)} | ${speedRatio(rclone, ours)} | ${cpu} ${peerCase.perFile ? 'ms per file' : 'CPU s'} |`,
    );
  }
}

function moreOrLess(seconds: number): string {
  return `${Math.abs(seconds * 1000).toFixed(0)} ms ${seconds < 0 ? 'less' : 'more'}`;
}

/** Start-up: median wall seconds of each command, node -e 0 as the baseline. */
export function printStartUps(starts: ReadonlyMap<string, number[]>, baseline: string, count: number): void {
  const base = median(starts.get(baseline) ?? []);
  const row = (name: string): { name: string; rate: number; unit: string; detail: string } => {
    const seconds = median(starts.get(name) ?? []);
    return {
      name,
      rate: 60 / seconds,
      unit: 'starts/min',
      detail: `${(seconds * 1000).toFixed(0)} ms wall${name === baseline ? '' : `, ${moreOrLess(seconds - base)} than ${baseline}`}`,
    };
  };
  printComparison(
    `Start-up, whole process from spawn to exit (median of ${count} each, interleaved)`,
    row(baseline),
    [...starts.keys()].filter((name) => name !== baseline).map(row),
  );
}
