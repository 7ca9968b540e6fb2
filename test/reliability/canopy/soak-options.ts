// The command line of `npm run soak` (scripts/soak.ts): seeds, rates of each disturbance, sizes, what to print.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { normalizeScenario } from './replay.ts';
import { generatorForThisMachine } from './run.ts';
import {
  DEFAULT_SOAK_RATES,
  generateSoakScenario,
  SOAK_GENERATOR,
  type SoakRates,
  type SoakScenario,
} from './soak-scenario.ts';

const R = DEFAULT_SOAK_RATES;

export const USAGE = `usage: npm run soak -- [--seeds N] [--from N] [--seed N] [--replay FILE] [rates]
  --seeds N          how many seeds (default 200), starting at --from (default 1)
  --seed N           run only this seed
  --replay FILE      run the scenario in FILE (the JSON this command prints for a failure)
  --crash-rate R     share of seeds whose engine dies mid-pass (default ${R.crash})
  --fault-rate R     share of seeds run against the device's --faults (default ${R.fault})
  --during-rate R    share of seeds with changes made while a pass runs (default ${R.during})
  --live             every seed through the live service (default: a share of ${R.live})
  --live-rate R      share of live seeds
  --bulk-rate R      share of seeds (made live) that rm -rf folders of many items, held by the guard (default ${R.bulk})
  --root-rate R      share of seeds whose folder is replaced, unplugged or swapped after a pass (default ${R.root})
  --trash-rate R     share of seeds whose folder is a disk's root, with its own trash (default ${R.trash})
  --upload-rate R    share of seeds with a big file changed while its upload is sent (default ${R.upload})
  --second-rate R    share of seeds where a second process tries the folder mid-pass (default ${R.second})
  --selection-rate R share of seeds that exclude device folders, change around them, include some again (default ${R.selection})
  --on-demand-rate R share of seeds whose local client is an on-demand pair: placeholders, pins, hydrations (default ${R.onDemand})
  --conflict-rate R  share of seeds whose pair settles new conflicts by a policy (newer, this, device) (default ${R.conflict})
  --kill-rate R      share of runs that SIGKILL a real child process (test/reliability/kill, when present)
  --items N          most items of an initial tree (default ${SOAK_GENERATOR.maxInitialItems})
  --changes N        most changes per side (default ${SOAK_GENERATOR.maxChangesPerSide})
  --match TEXT       shrink only to scenarios with a violation whose message holds TEXT
  --keep-going       run every seed, list all failing ones, then shrink the first
  --no-shrink        print the failing scenario as generated
  --log              print the engine's log and requests of the (shrunk) failing run`;

export interface SoakOptions {
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

/** The rate's field for a flag's name (`on-demand` → `onDemand`). */
function key<Name extends string>(name: Name): keyof SoakRates {
  return name.replace(/-(\w)/gu, (_, letter: string) => letter.toUpperCase()) as keyof SoakRates;
}

/** The options of `argv`; `help` when the usage was asked for. Throws on a bad value. */
export function parseSoakOptions(argv: string[]): SoakOptions | 'help' {
  const rateFlags = [
    'crash',
    'fault',
    'during',
    'live',
    'bulk',
    'root',
    'trash',
    'upload',
    'second',
    'selection',
    'on-demand',
    'conflict',
  ] as const;
  const { values } = parseArgs({
    args: argv,
    options: {
      seeds: { type: 'string', default: '200' },
      from: { type: 'string', default: '1' },
      seed: { type: 'string' },
      replay: { type: 'string' },
      ...Object.fromEntries(
        rateFlags.map((name) => [`${name}-rate`, { type: 'string' as const, default: String(R[key(name)]) }]),
      ),
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
  if (values.help === true) return 'help';
  const text = (name: string): string => String((values as Record<string, unknown>)[name]);
  const whole = (name: string): number => {
    const value = Number(text(name));
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`--${name} takes a whole number, not ${text(name)}`);
    return value;
  };
  const rate = (name: string): number => {
    const value = Number(text(name));
    if (!Number.isFinite(value) || value < 0 || value > 1)
      throw new Error(`--${name} takes 0 to 1, not ${text(name)}`);
    return value;
  };
  const rates = Object.fromEntries(
    rateFlags.map((name) => [key(name), rate(`${name}-rate`)]),
  ) as unknown as SoakRates;
  if (values.live === true) rates.live = 1;
  const generator = generatorForThisMachine({
    ...SOAK_GENERATOR,
    maxInitialItems: whole('items'),
    maxChangesPerSide: whole('changes'),
  });
  const replay = values.replay;
  const single = values.seed === undefined ? undefined : whole('seed');
  const from = single ?? whole('from');
  const count = replay !== undefined ? 1 : single === undefined ? whole('seeds') : 1;
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
    shrink: values['no-shrink'] !== true,
    log: values.log === true,
    keepGoing: values['keep-going'] === true,
    match: values.match,
    killRate: rate('kill-rate'),
    killFiles: whole('kill-files'),
    again: (seed) =>
      replay !== undefined
        ? `npm run soak -- --replay ${replay}`
        : `npm run soak -- --seed ${seed}${flags
            .replace(/--seed \d+/u, '')
            .replace(/^ */u, ' ')
            .trimEnd()}`,
  };
}
