// The desktop app's `--profile DIR` (or `--profile=DIR`), so it finds the profile by mch-sync's rules: the flag, else MCH_PROFILE, else the platform's folder.

/**
 * The last `--profile` given, or undefined. Words after `--` are paths to share, never options. An
 * empty value counts as not given (resolveProfileDir then falls back), as `--profile` with nothing
 * after it does.
 */
export function profileFlagOf(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? '';
    if (word === '--') break;
    if (word === '--profile') {
      const next = argv[index + 1];
      if (next !== undefined && !next.startsWith('-') && next !== '') {
        found = next;
        index += 1;
      }
    } else if (word.startsWith('--profile=') && word.length > '--profile='.length) {
      found = word.slice('--profile='.length);
    }
  }
  return found;
}
