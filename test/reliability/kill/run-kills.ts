// `run-kills.ts --seeds N [--from N] [--files N] [--seed N --log] [--keep-going]`: the SIGKILL runs from the command line.
import { parseArgs } from 'node:util';
import { runKillSeed, startKillRig } from './kill-run.ts';

const USAGE =
  'usage: node test/reliability/kill/run-kills.ts --seeds N [--from N] [--files N] [--keep-going]\n' +
  '       node test/reliability/kill/run-kills.ts --seed N [--files N] [--log]';

function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new Error(`--${name} must be a whole number\n${USAGE}`);
  return number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string' },
      from: { type: 'string' },
      seed: { type: 'string' },
      files: { type: 'string' },
      log: { type: 'boolean' },
      'keep-going': { type: 'boolean' },
    },
  });
  const single = values.seed === undefined ? undefined : count(values.seed, 'seed', 1);
  const seeds = single === undefined ? count(values.seeds, 'seeds', 20) : 1;
  const from = single ?? count(values.from, 'from', 1);
  const files = count(values.files, 'files', 300);
  const failed: Array<{ seed: number; violations: string[] }> = [];
  const rig = await startKillRig();
  const started = Date.now();
  const tally = { killed: 0, killedIdle: 0, moments: 0, kinds: new Map<string, number>() };
  try {
    for (let seed = from; seed < from + seeds; seed += 1) {
      const result = await runKillSeed(seed, { files, log: values.log === true, rig });
      const { violations } = result;
      tally.killed += result.killed;
      tally.killedIdle += result.killedIdle;
      tally.moments += result.moments;
      tally.kinds.set(result.kind, (tally.kinds.get(result.kind) ?? 0) + 1);
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const what = `${result.kind}, ${result.killed} of ${result.moments} runs killed mid-work`;
      if (violations.length === 0) {
        process.stdout.write(`seed ${seed} passed (${what}; ${seconds} s)\n`);
        continue;
      }
      failed.push({ seed, violations });
      process.stdout.write(`seed ${seed} FAILED (${what}; ${seconds} s):\n  ${violations.join('\n  ')}\n`);
      if (values['keep-going'] !== true) break;
    }
  } finally {
    await rig.stop();
  }
  process.stdout.write(
    `${tally.killed} runs killed mid-work, ${tally.killedIdle} live runs killed idle, ` +
      `${tally.moments - tally.killed - tally.killedIdle} ended before their moment; seeds by kind: ` +
      `${[...tally.kinds].map(([kind, count]) => `${kind} ${count}`).join(', ')}\n`,
  );
  const ran =
    failed.length > 0 && values['keep-going'] !== true ? (failed.at(-1)?.seed ?? from) - from + 1 : seeds;
  if (failed.length === 0) {
    process.stdout.write(`all ${seeds} seeds passed\n`);
    return 0;
  }
  process.stdout.write(
    `${failed.length} of ${ran} seeds failed: ${failed.map((failure) => failure.seed).join(', ')}\n` +
      `reproduce one with: node test/reliability/kill/run-kills.ts --seed ${failed[0]?.seed} --files ${files} --log\n`,
  );
  return 1;
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  return 2;
});
