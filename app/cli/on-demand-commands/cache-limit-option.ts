// `folders set --cache-limit SIZE|off`: how much room an on-demand folder's unpinned content may take, as given and in words.
import { formatBytes } from '../../../common/units.ts';
import { readPairOnDemand, updatePairOnDemand } from '../../profile/pair-on-demand.ts';
import { parseSize } from '../../selection/selection-change.ts';
import { SelectionError } from '../../selection/selection-errors.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { UsageError } from '../terminal/cli-context.ts';

type Values = Record<string, string | boolean | undefined>;

/** `--cache-limit` in bytes (null: off), undefined when not given; refused before anything changes. */
export function cacheLimitOf(values: Values, usage: string): number | null | undefined {
  const given = values['cache-limit'];
  if (given === undefined) return undefined;
  try {
    return parseSize(String(given));
  } catch (error) {
    if (error instanceof SelectionError) {
      throw new UsageError(`--cache-limit: ${error.message.replace('500MB, 2GB', '5GB, 500MB')}`, usage);
    }
    throw error;
  }
}

/** The limit in words. */
export function cacheLimitWords(limit: number | null): string {
  return limit === null
    ? 'no cache limit: files stay here until freed'
    : `cache limit ${formatBytes(limit)}: past it, the least recently used files that are not pinned are freed`;
}

/** Sets the limit of an on-demand pair; refused (nothing changed) for a pair that is not on demand. */
export async function setCacheLimit(
  profileDir: string,
  localRoot: string,
  limit: number | null,
  usage: string,
): Promise<void> {
  if (readPairOnDemand(profileDir, localRoot) === undefined) {
    // Refused before the record is written: it stays as it is, byte for byte.
    throw new UsageError(
      `${terminalSafe(localRoot)} is not on demand (\`folders add --on-demand\`): every file of it is here, and there is no cache to limit.`,
      usage,
    );
  }
  await updatePairOnDemand(profileDir, localRoot, (current) =>
    current === undefined ? undefined : { ...current, cacheLimitBytes: limit },
  );
}
