// `npm run soak`: randomized sync runs with crashes, device faults, changes mid-pass and live seeds (issue 18), and issue 26's folder, upload and second-process disturbances.
import { existsSync } from 'node:fs';
import type { TestDevice } from '../test/helpers/device.ts';
import { describeScenario, describeViolations } from '../test/reliability/canopy/format.ts';
import { startCanopyDevice } from '../test/reliability/canopy/run.ts';
import {
  parseSoakOptions,
  USAGE,
  type SoakOptions as Options,
} from '../test/reliability/canopy/soak-options.ts';
import { removeSignedInProfiles } from '../test/reliability/canopy/second-process.ts';
import { runSoakScenario, type SoakResult } from '../test/reliability/canopy/soak-run.ts';
import { describeDisturbances, type SoakScenario } from '../test/reliability/canopy/soak-scenario.ts';
import { scenarioSize, shrinkScenario } from '../test/reliability/canopy/shrink.ts';

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
    const parsed = parseSoakOptions(process.argv.slice(2));
    if (parsed === 'help') {
      console.log(USAGE);
      return 0;
    }
    options = parsed;
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
  const tally = {
    crashed: 0,
    faults: 0,
    during: 0,
    live: 0,
    impossible: 0,
    bulk: 0,
    root: 0,
    trash: 0,
    upload: 0,
    second: 0,
  };
  try {
    for (const scenario of options.scenarios()) {
      const result = await runSoakScenario(scenario, device);
      done += 1;
      if (result.crashed) tally.crashed += 1;
      if (scenario.soak.faults) tally.faults += 1;
      if (scenario.soak.during) tally.during += 1;
      if (scenario.soak.live) tally.live += 1;
      for (const name of ['bulk', 'root', 'trash', 'second'] as const)
        if (scenario.soak[name]) tally[name] += 1;
      if (result.uploadChanged) tally.upload += 1;
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
    const mix =
      `${tally.crashed} crashed, ${tally.faults} with faults, ${tally.during} with changes mid-pass, ${tally.live} live; ` +
      `${tally.bulk} bulk deletes, ${tally.root} folders changed, ${tally.trash} at a disk's root, ${tally.upload} uploads changed while sent, ` +
      `${tally.second} second processes; ${tally.impossible} mid-pass changes found impossible`;
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
    await removeSignedInProfiles(device);
    await device.stop();
  }
}

function elapsed(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

process.exitCode = await main();
