// `npm run sync-random`: runs the randomized two-sided sync test for many seeds and shrinks the first failure.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { TestDevice } from '../test/helpers/device.ts';
import { describeScenario, describeViolations, reproduceCommand } from '../test/reliability/canopy/format.ts';
import {
  generatorForThisMachine,
  runScenario,
  startCanopyDevice,
  type RunResult,
} from '../test/reliability/canopy/run.ts';
import { normalizeScenario } from '../test/reliability/canopy/replay.ts';
import {
  DEFAULT_GENERATOR,
  generateScenario,
  type GeneratorOptions,
  type Scenario,
} from '../test/reliability/canopy/scenario.ts';
import { scenarioSize, shrinkScenario } from '../test/reliability/canopy/shrink.ts';

const USAGE = `usage: npm run sync-random -- [--seeds N] [--from N] [--seed N] [--replay FILE]
  --seeds N        how many seeds to run (default 200), starting at --from (default 1)
  --seed N         run only this seed
  --replay FILE    run the scenario in FILE (the JSON this command prints for a failure)
  --items N        most items of an initial tree (default ${DEFAULT_GENERATOR.maxInitialItems})
  --changes N      most changes per side (default ${DEFAULT_GENERATOR.maxChangesPerSide})
  --match TEXT     shrink only to scenarios with a violation whose message holds TEXT
  --keep-going     run every seed, list all failing ones, then shrink the first
  --no-shrink      print the failing scenario as generated
  --log            print the engine's log and requests of the (shrunk) failing run`;

interface Options {
  scenarios: () => Iterable<Scenario>;
  shrink: boolean;
  log: boolean;
  keepGoing: boolean;
  match: string | undefined;
  generator: GeneratorOptions;
  replay: string | undefined;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      seeds: { type: 'string', default: '200' },
      from: { type: 'string', default: '1' },
      seed: { type: 'string' },
      replay: { type: 'string' },
      items: { type: 'string', default: String(DEFAULT_GENERATOR.maxInitialItems) },
      changes: { type: 'string', default: String(DEFAULT_GENERATOR.maxChangesPerSide) },
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
  const number = (name: string, text: string): number => {
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`--${name} takes a whole number, not ${text}`);
    return value;
  };
  const generator = generatorForThisMachine({
    ...DEFAULT_GENERATOR,
    maxInitialItems: number('items', values.items),
    maxChangesPerSide: number('changes', values.changes),
  });
  const replay = values.replay;
  const single = values.seed === undefined ? undefined : number('seed', values.seed);
  const from = single ?? number('from', values.from);
  const count = single === undefined ? number('seeds', values.seeds) : 1;
  return {
    scenarios: function* () {
      if (replay !== undefined) {
        yield normalizeScenario(JSON.parse(readFileSync(replay, 'utf8')) as Scenario);
        return;
      }
      for (let seed = from; seed < from + count; seed++) yield generateScenario(seed, generator);
    },
    shrink: !values['no-shrink'],
    log: values.log,
    keepGoing: values['keep-going'],
    match: values.match,
    generator,
    replay,
  };
}

/**
 * Same failure: a violation with the text asked for, else one of the same kind as the original, so
 * shrinking does not drift to another bug.
 */
function failsLike(original: RunResult, result: RunResult, match: string | undefined): boolean {
  if (match !== undefined) return result.violations.some((violation) => violation.message.includes(match));
  const codes = new Set(original.violations.map((violation) => violation.code));
  return result.violations.some((violation) => codes.has(violation.code));
}

async function report(
  device: TestDevice,
  scenario: Scenario,
  failure: RunResult,
  options: Options,
): Promise<void> {
  console.log(
    `\nseed ${scenario.seed} FAILED (${failure.phase}):\n${describeViolations(failure.violations)}`,
  );
  let minimal = scenario;
  let minimalResult = failure;
  if (options.shrink) {
    process.stdout.write(`shrinking from ${scenarioSize(scenario)} steps`);
    const shrunk = await shrinkScenario(
      scenario,
      async (candidate) => {
        const result = await runScenario(candidate, device);
        if (!failsLike(failure, result, options.match)) return false;
        minimalResult = result;
        return true;
      },
      { onSmaller: (smaller) => process.stdout.write(` ${scenarioSize(smaller)}`) },
    );
    minimal = shrunk.scenario;
    console.log(` (${shrunk.runs} runs)`);
  }
  console.log(`\nminimal reproduction:\n${describeScenario(minimal)}`);
  console.log(`\nviolations:\n${describeViolations(minimalResult.violations)}`);
  if (options.log) {
    console.log('\nengine log:');
    for (const line of minimalResult.log) console.log(`  ${line.level} ${line.path ?? ''} ${line.message}`);
    console.log('\nissues the passes reported:');
    for (const issue of minimalResult.issues)
      console.log(`  ${issue.kind} ${issue.path} ${issue.code}: ${issue.message}`);
    console.log(`\nengine requests, all passes:\n  ${minimalResult.requests.join('\n  ')}`);
  }
  console.log(`\nas JSON (save it and run with --replay FILE):\n${JSON.stringify(minimal)}`);
  const again =
    options.replay === undefined
      ? reproduceCommand(scenario.seed, options.generator)
      : `npm run sync-random -- --replay ${options.replay}`;
  console.log(`\nrun it again: ${again}`);
}

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`sync-random: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const device = await startCanopyDevice();
  const started = Date.now();
  let done = 0;
  const failures: { scenario: Scenario; result: RunResult }[] = [];
  try {
    for (const scenario of options.scenarios()) {
      const result = await runScenario(scenario, device);
      done += 1;
      if (result.violations.length > 0) {
        failures.push({ scenario, result });
        if (!options.keepGoing) break;
        const first = result.violations[0];
        console.log(
          `seed ${scenario.seed} failed (${result.phase}): [${first?.code}] ${first?.message.split('\n')[0]}`,
        );
      }
      if (done % 25 === 0)
        console.log(`${done} seeds run (up to seed ${scenario.seed}, ${elapsed(started)})`);
    }
    const [failure] = failures;
    if (failure === undefined) {
      console.log(`${done === 1 ? 'the scenario' : `all ${done} seeds`} passed in ${elapsed(started)}`);
      return 0;
    }
    if (options.keepGoing) {
      console.log(
        `\n${failures.length} of ${done} seeds failed: ${failures.map((f) => f.scenario.seed).join(' ')}`,
      );
    }
    await report(device, failure.scenario, failure.result, options);
    return 1;
  } finally {
    await device.stop();
  }
}

function elapsed(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

process.exitCode = await main();
