// Assertions on mch-sync runs: the exit code, with the command's error output in the failure message.
import { expect } from 'vitest';
import type { CliRun } from './mch-sync.ts';

/** The command exited with `code`; a failure shows what it wrote to stderr. */
export function expectExit(run: Pick<CliRun, 'code' | 'stderr'>, code: number): void {
  expect(run.code, run.stderr).toBe(code);
}
