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

/**
 * `--no-download LIST|default`: the programs (comma-separated names or patterns: `gvfsd*`,
 * `*thumbnail*`) that get the metadata of a file not here and never download it; `default` for the
 * mount's own list. Undefined when not given, null for `default`.
 */
export function noDownloadOf(values: Values, usage: string): string[] | null | undefined {
  const given = values['no-download'];
  if (given === undefined) return undefined;
  const text = String(given).trim();
  if (text === 'default') return null;
  const names = text.split(',').map((name) => name.trim());
  if (names.length === 0 || names.some((name) => name === '' || name.length > 255 || /[\s/]/.test(name))) {
    throw new UsageError(
      '--no-download: give process names or patterns separated by commas (tracker-miner-fs-3,*thumbnail*), or default.',
      usage,
    );
  }
  return names;
}

/** Sets the no-download list of an on-demand pair (null: the defaults); refused for a pair not on demand. */
export async function setNoDownload(
  profileDir: string,
  localRoot: string,
  names: string[] | null,
  usage: string,
): Promise<void> {
  if (readPairOnDemand(profileDir, localRoot) === undefined) {
    throw new UsageError(`${terminalSafe(localRoot)} is not on demand (\`folders add --on-demand\`).`, usage);
  }
  await updatePairOnDemand(profileDir, localRoot, (current) => {
    if (current === undefined) return undefined;
    const { noDownload: _old, ...rest } = current;
    return names === null ? rest : { ...rest, noDownload: names };
  });
}
