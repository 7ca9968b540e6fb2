// Prints benchmark results as a table with each row's ratio to the baseline measured in the same run.
export interface Measurement {
  name: string;
  /** Higher is better (requests or files per second...). */
  rate: number;
  unit: string;
  detail?: string;
}

export function printComparison(title: string, baseline: Measurement, rows: Measurement[]): void {
  console.log(`\n${title}`);
  console.log(`| case | ${baseline.unit} | ratio to baseline | detail |`);
  console.log('|---|---:|---:|---|');
  for (const row of [baseline, ...rows]) {
    const ratio = row === baseline ? '1.00 (baseline)' : (row.rate / baseline.rate).toFixed(2);
    console.log(`| ${row.name} | ${row.rate.toFixed(0)} | ${ratio} | ${row.detail ?? ''} |`);
  }
}
