// Prints latencies (lower is better) as a table with each row's p50 and p95 ratio to the baseline measured in the same run; printComparison's counterpart for times.
import { percentile } from './live-harness.ts';

export interface LatencySamples {
  name: string;
  /** One time per sample, ms. */
  ms: readonly number[];
  detail?: string;
}

export interface LatencySummary {
  p50: number;
  p95: number;
  max: number;
}

export function summarize(ms: readonly number[]): LatencySummary {
  return { p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), max: Math.max(...ms) };
}

export function printLatencyComparison(
  title: string,
  baseline: LatencySamples,
  rows: LatencySamples[],
): void {
  const base = summarize(baseline.ms);
  console.log(`\n${title}`);
  console.log('| case | samples | p50 (ms) | p95 (ms) | max (ms) | p50 ratio | p95 ratio | detail |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const row of [baseline, ...rows]) {
    const own = summarize(row.ms);
    const ratio = (value: number, of: number): string =>
      row === baseline ? '1.00 (baseline)' : of > 0 ? (value / of).toFixed(2) : 'n/a';
    console.log(
      `| ${row.name} | ${row.ms.length} | ${own.p50.toFixed(1)} | ${own.p95.toFixed(1)} | ${own.max.toFixed(1)} | ${ratio(own.p50, base.p50)} | ${ratio(own.p95, base.p95)} | ${row.detail ?? ''} |`,
    );
  }
}
