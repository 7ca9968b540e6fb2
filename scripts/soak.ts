// `npm run soak`: randomized sync runs with crashes, device faults, changes mid-pass and live seeds (issue 18).
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { TestDevice } from '../test/helpers/device.ts';
import { describeScenario, describeViolations } from '../test/reliability/canopy/format.ts';
import { generatorForThisMachine, startCanopyDevice } from '../test/reliability/canopy/run.ts';
import { normalizeScenario } from '../test/reliability/canopy/replay.ts';
import { runSoakScenario, type SoakResult } from '../test/reliability/canopy/soak-run.ts';
import {
  DEFAULT_SOAK_RATES,
  describeDisturbances,
  generateSoakScenario,
  SOAK_GENERATOR,
  type SoakRates,
  type SoakScenario,
} from '../test/reliability/canopy/soak-scenario.ts';
import { scenarioSize, shrinkScenario } from '../test/reliability/canopy/shrink.ts';

const USAGE = `usage: npm run soak -- [--seeds N] [--from N] [--seed N] [--replay FILE] [rates]
  --seeds N          how many seeds (default 200), starting at --from (default 1)
  --seed N           run only this seed
  --replay FILE      run the scenario in FILE (the JSON this command prints for a failure)
  --crash-rate R     share of seeds whose engine dies mid-pass (default ${DEFAULT_SOAK_RATES.crash})
  --fault-rate R     share of seeds run against the device's --faults (default ${DEFAULT_SOAK_RATES.fault})
  --during-rate R    share of seeds with changes made while a pass runs (default ${DEFAULT_SOAK_RATES.during})
  --live             every seed through the live service (default: a share of ${DEFAULT_SOAK_RATES.live})
  --live-rate R      share of live seeds
  --kill-rate R      share of runs that SIGKILL a real child process (test/reliability/kill, when present)
  --items N          most items of an initial tree (default ${SOAK_GENERATOR.maxInitialItems})
  --changes N        most changes per side (default ${SOAK_GENERATOR.maxChangesPerSide})
  --match TEXT       shrink only to scenarios with a violation whose message holds TEXT
  --keep-going       run every seed, list all failing ones, then shrink the first
  --no-shrink        print the failing scenario as generated
  --log              print the engine's log and requests of the (shrunk) failing run`;

interface Options {
  scenarios: () => Iterable<SoakScenario>;
  count: number;
  shrink: boolean;
  log: boolean;
  keepGoing: boolean;
  match: string | undefined;
  killRate: number;
  killFiles: number;
  again: (seed: number) => string;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      seeds: { type: 'string', default: '200' },
      from: { type: 'string', default: '1' },
      seed: { type: 'string' },
      replay: { type: 'string' },
      'crash-rate': { type: 'string', default: String(DEFAULT_SOAK_RATES.crash) },
      'fault-rate': { type: 'string', default: String(DEFAULT_SOAK_RATES.fault) },
      'during-rate': { type: 'string', default: String(DEFAULT_SOAK_RATES.during) },
      'live-rate': { type: 'string', default: String(DEFAULT_SOAK_RATES.live) },
      live: { type: 'boolean', default: false },
      'kill-rate': { type: 'string', default: '0.01' },
      'kill-files': { type: 'string', default: '200' },
      items: { type: 'string', default: String(SOAK_GENERATOR.maxInitialItems) },
      changes: { type: 'string', default: String(SOAK_GENERATOR.maxChangesPerSide) },
      'no-shrink': { type: 'boolean', default: false },
      'keep-going': { type: 'boolean', default: false },
      match: { type: 'string' },
      log: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const whole = (name: string, text: string): number => {
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`--${name} takes a whole number, not ${text}`);
    return value;
  };
  const rate = (name: string, text: string): number => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || value > 1)
      throw new Error(`--${name} takes 0 to 1, not ${text}`);
    return value;
  };
  const rates: SoakRates = {
    crash: rate('crash-rate', values['crash-rate']),
    fault: rate('fault-rate', values['fault-rate']),
    during: rate('during-rate', values['during-rate']),
    live: values.live ? 1 : rate('live-rate', values['live-rate']),
  };
  const generator = generatorForThisMachine({
    ...SOAK_GENERATOR,
    maxInitialItems: whole('items', values.items),
    maxChangesPerSide: whole('changes', values.changes),
  });
  const replay = values.replay;
  const single = values.seed === undefined ? undefined : whole('seed', values.seed);
  const from = single ?? whole('from', values.from);
  const count = replay !== undefined ? 1 : single === undefined ? whole('seeds', values.seeds) : 1;
  const flags = argv
    .filter(
      (arg, index) =>
        !['--seeds', '--from', '--keep-going', '--no-shrink'].includes(arg) &&
        !['--seeds', '--from'].includes(argv[index - 1] ?? ''),
    )
    .join(' ');
  return {
    scenarios: function* () {
      if (replay !== undefined) {
        const saved = JSON.parse(readFileSync(replay, 'utf8')) as SoakScenario;
        yield { ...normalizeScenario(saved), soak: saved.soak };
        return;
      }
      for (let seed = from; seed < from + count; seed++) yield generateSoakScenario(seed, generator, rates);
    },
    count,
    shrink: !values['no-shrink'],
    log: values.log,
    keepGoing: values['keep-going'],
    match: values.match,
    killRate: rate('kill-rate', values['kill-rate']),
    killFiles: whole('kill-files', values['kill-files']),
    again: (seed) =>
      replay !== undefined
        ? `npm run soak -- --replay ${replay}`
        : `npm run soak -- --seed ${seed}${flags
            .replace(/--seed \d+/u, '')
            .replace(/^ */u, ' ')
            .trimEnd()}`,
  };
}

function failsLike(original: SoakResult, result: SoakResult, match: string | undefined): boolean {
  if (match !== undefined) return result.violations.some((violation) => violation.message.includes(match));
  const codes = new Set(original.violations.map((violation) => violation.code));
  return result.violations.some((violation) => codes.has(violation.code));
}

async function report(
  device: TestDevice,
  scenario: SoakScenario,
  failure: SoakResult,
  options: Options,
): Promise<void> {
  console.log(
    `\nseed ${scenario.seed} FAILED (${failure.phase}):\n${describeViolations(failure.violations)}`,
  );
  console.log(`disturbances: ${describeDisturbances(scenario.soak)}`);
  let minimal = scenario;
  let minimalResult = failure;
  if (options.shrink) {
    process.stdout.write(`shrinking from ${scenarioSize(scenario)} steps`);
    const shrunk = await shrinkScenario(
      scenario,
      async (candidate) => {
        const result = await runSoakScenario(candidate as SoakScenario, device);
        if (!failsLike(failure, result, options.match)) return false;
        minimalResult = result;
        return true;
      },
      { onSmaller: (smaller) => process.stdout.write(` ${scenarioSize(smaller)}`) },
    );
    minimal = shrunk.scenario as SoakScenario;
    console.log(` (${shrunk.runs} runs)`);
  }
  console.log(
    `\nminimal reproduction:\n${describeScenario(minimal)}\n   disturbances: ${describeDisturbances(minimal.soak)}`,
  );
  console.log(`\nviolations:\n${describeViolations(minimalResult.violations)}`);
  if (minimalResult.impossible.length > 0)
    console.log(`\nchanges that could not be made mid-pass:\n  ${minimalResult.impossible.join('\n  ')}`);
  if (options.log) {
    console.log('\nengine log:');
    for (const line of minimalResult.log) console.log(`  ${line.level} ${line.path ?? ''} ${line.message}`);
    console.log('\nissues the passes reported:');
    for (const issue of minimalResult.issues)
      console.log(`  ${issue.kind} ${issue.path} ${issue.code}: ${issue.message}`);
    console.log(`\nengine requests, all passes:\n  ${minimalResult.requests.join('\n  ')}`);
  }
  console.log(`\nas JSON (save it and run with --replay FILE):\n${JSON.stringify(minimal)}`);
  console.log(`\nrun it again: ${options.again(scenario.seed)}`);
  console.log('(a crash or fault lands where the requests of that run put it: a replay may need a few runs)');
}

/** The real-SIGKILL runs of test/reliability/kill/ (issue 18), when that module is there. */
interface KillRuns {
  run: (seed: number) => Promise<{ violations: string[] }>;
  stop: () => Promise<void>;
}

interface KillModule {
  runKillSeed?: (
    seed: number,
    options: { files: number; log?: boolean; rig?: unknown },
  ) => Promise<{ violations: string[] }>;
  startKillRig?: () => Promise<{ stop: () => Promise<void> }>;
}

async function loadKillRuns(files: number, log: boolean): Promise<KillRuns | undefined> {
  const path = new URL('../test/reliability/kill/kill-run.ts', import.meta.url);
  if (!existsSync(path)) return undefined;
  const module = (await import(path.href)) as KillModule;
  const runKillSeed = module.runKillSeed;
  if (runKillSeed === undefined) return undefined;
  // One device and signed-in profile for every kill run of the sweep, started at the first.
  let rig: { stop: () => Promise<void> } | undefined;
  return {
    run: async (seed) => {
      rig ??= await module.startKillRig?.();
      return runKillSeed(seed, { files, log, ...(rig === undefined ? {} : { rig }) });
    },
    stop: async () => {
      await rig?.stop();
    },
  };
}

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`soak: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const killRun = options.killRate > 0 ? await loadKillRuns(options.killFiles, options.log) : undefined;
  const device = await startCanopyDevice();
  const started = Date.now();
  let done = 0;
  let kills = 0;
  const failures: { scenario: SoakScenario; result: SoakResult }[] = [];
  const killFailures: { seed: number; violations: string[] }[] = [];
  const tally = { crashed: 0, faults: 0, during: 0, live: 0, impossible: 0 };
  try {
    for (const scenario of options.scenarios()) {
      const result = await runSoakScenario(scenario, device);
      done += 1;
      if (result.crashed) tally.crashed += 1;
      if (scenario.soak.faults) tally.faults += 1;
      if (scenario.soak.during) tally.during += 1;
      if (scenario.soak.live) tally.live += 1;
      tally.impossible += result.impossible.length;
      if (result.violations.length > 0) {
        failures.push({ scenario, result });
        const first = result.violations[0];
        console.log(
          `seed ${scenario.seed} failed (${result.phase}): [${first?.code}] ${first?.message.split('\n')[0]}`,
        );
        if (!options.keepGoing) break;
      }
      // A share killRate of the seeds (picked by a hash of the seed) also runs R2's real SIGKILL run of it.
      if (
        killRun !== undefined &&
        options.killRate > 0 &&
        (scenario.seed * 2654435761) % 1e6 < options.killRate * 1e6
      ) {
        kills += 1;
        const killed = await killRun.run(scenario.seed);
        if (killed.violations.length > 0) {
          killFailures.push({ seed: scenario.seed, violations: killed.violations });
          console.log(`kill run ${scenario.seed} failed: ${killed.violations[0]}`);
          if (!options.keepGoing) break;
        }
      }
      if (done % 25 === 0)
        console.log(`${done} seeds run (up to seed ${scenario.seed}, ${elapsed(started)})`);
    }
    const mix = `${tally.crashed} crashed, ${tally.faults} with faults, ${tally.during} with changes mid-pass, ${tally.live} live; ${tally.impossible} mid-pass changes found impossible`;
    const killText =
      killRun === undefined ? '' : `; ${kills} real SIGKILL runs, ${killFailures.length} failed`;
    console.log(`(${mix}${killText})`);
    for (const failure of killFailures) {
      console.log(`\nkill run ${failure.seed} FAILED:\n  ${failure.violations.join('\n  ')}`);
      console.log(
        `run it again: npx node test/reliability/kill/run-kills.ts --seed ${failure.seed} --files ${options.killFiles} --log`,
      );
    }
    const [failure] = failures;
    if (failure === undefined && killFailures.length === 0) {
      console.log(`${done === 1 ? 'the scenario' : `all ${done} seeds`} passed in ${elapsed(started)}`);
      return 0;
    }
    const failed = [
      ...failures.map((f) => String(f.scenario.seed)),
      ...killFailures.map((f) => `kill:${f.seed}`),
    ];
    console.log(`\n${failed.length} of ${done} seeds failed: ${failed.join(' ')}`);
    if (failure !== undefined) await report(device, failure.scenario, failure.result, options);
    return 1;
  } finally {
    await killRun?.stop();
    await device.stop();
  }
}

function elapsed(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

process.exitCode = await main();
