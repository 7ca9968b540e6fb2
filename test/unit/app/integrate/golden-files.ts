// Golden files of the generated entries: compared byte for byte; `UPDATE_GOLDEN=1 npx vitest run test/unit/app/integrate` rewrites them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { describeEntry, type EntryDescription } from '../../../../app/integrate/entry-description.ts';

const GOLDEN_DIR = join(import.meta.dirname, 'golden');

/**
 * The description every golden file is made from: a program and a profile whose paths hold a space,
 * quotes, `$`, `%` and non-ASCII, so each format's quoting shows in its golden file.
 */
export const GOLDEN_PROFILE = `/home/alice/mch profiles/it's 100% "work" $HOME ✓`;
export const GOLDEN_DESCRIPTION: EntryDescription = describeEntry({
  baseCommand: [
    '/opt/My Apps/mch "sync"/node',
    '/opt/My Apps/mch-sync/bin/mch-sync.js',
    '--profile',
    GOLDEN_PROFILE,
  ],
  profileDir: GOLDEN_PROFILE,
  defaultProfile: false,
});

/** Checks `text` against `golden/<name>`, or writes it there when UPDATE_GOLDEN=1. */
export function expectGolden(name: string, text: string): void {
  const path = join(GOLDEN_DIR, name);
  if (process.env['UPDATE_GOLDEN'] === '1') {
    writeFileSync(path, text);
    return;
  }
  expect(text, `${name} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`).toBe(
    readFileSync(path, 'utf8'),
  );
}
