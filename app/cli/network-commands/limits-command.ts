// `mch-sync limits [--up RATE] [--down RATE] [--json]`: shows or sets the profile's upload and download limits.
import { formatSpeed } from '../../../common/units.ts';
import { parseRate, RateTextError } from '../../../common/rate-text.ts';
import { SettingsFile, type BandwidthLimitSettings } from '../../profile/settings.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';

export const LIMITS_USAGE = `Usage: mch-sync [--profile DIR] limits [--up RATE] [--down RATE] [--json]

Shows the upload and download limits, or sets them. They hold for every folder pair of the profile
together (all pairs of one \`mch-sync run\`, or of the window, share them), and a running client applies
a change within a second or two, from the next piece of each transfer on.

RATE is a number with a unit, /s optional: 2MB/s, 500KB/s, 1.5MiB/s; or off for no limit. KB, MB and
GB are powers of 1000 (1 MB = 1,000,000 bytes), KiB, MiB and GiB powers of 1024; the letters' case does
not matter. A number without a unit is refused (bytes or kilobytes?), and so are bits (Mbit, Mbps).
The lowest limit is 1KB/s.

Options:
  --up RATE     the upload limit
  --down RATE   the download limit
  --json        machine-readable output: {"upBytesPerSec": N or null, "downBytesPerSec": N or null}
  -h, --help    show this help

Exit codes: 0 done, 2 usage error (nothing changed).`;

type Values = Record<string, string | boolean | undefined>;

export async function runLimits(context: CommandContext, values: Values): Promise<number> {
  // Both are read before anything is written: one bad value changes neither.
  const up = rateOption(values, 'up');
  const down = rateOption(values, 'down');
  const file = new SettingsFile(context.profileDir);
  let limits: BandwidthLimitSettings;
  if (up === undefined && down === undefined) {
    limits = (await file.read()).limits ?? {};
  } else {
    const next = await file.update((current) => ({
      ...current,
      limits: changedLimits(current.limits ?? {}, up, down),
    }));
    limits = next.limits ?? {};
  }
  if (values['json'] === true) {
    context.print(
      JSON.stringify(
        { upBytesPerSec: limits.upBytesPerSec ?? null, downBytesPerSec: limits.downBytesPerSec ?? null },
        null,
        2,
      ),
    );
    return 0;
  }
  context.print(`Upload: ${limitWords(limits.upBytesPerSec)}`);
  context.print(`Download: ${limitWords(limits.downBytesPerSec)}`);
  if (up !== undefined || down !== undefined) {
    context.print('A running mch-sync (run, ui, the app) applies this within a second or two.');
  }
  return 0;
}

/** `--up`/`--down`: `{ rate }` (undefined rate: off), or undefined when not given. */
function rateOption(values: Values, name: 'up' | 'down'): { rate: number | undefined } | undefined {
  const given = values[name];
  if (given === undefined) return undefined;
  try {
    return { rate: parseRate(String(given)) };
  } catch (error) {
    if (error instanceof RateTextError) throw new UsageError(`--${name}: ${error.message}`, LIMITS_USAGE);
    throw error;
  }
}

function changedLimits(
  current: BandwidthLimitSettings,
  up: { rate: number | undefined } | undefined,
  down: { rate: number | undefined } | undefined,
): BandwidthLimitSettings | undefined {
  const upRate = up === undefined ? current.upBytesPerSec : up.rate;
  const downRate = down === undefined ? current.downBytesPerSec : down.rate;
  const limits: BandwidthLimitSettings = {};
  if (upRate !== undefined) limits.upBytesPerSec = upRate;
  if (downRate !== undefined) limits.downBytesPerSec = downRate;
  // No limit either way: the key goes, and the file reads as before any limit was set.
  return upRate === undefined && downRate === undefined ? undefined : limits;
}

function limitWords(bytesPerSec: number | undefined): string {
  return bytesPerSec === undefined ? 'no limit' : `at most ${formatSpeed(bytesPerSec)}`;
}
