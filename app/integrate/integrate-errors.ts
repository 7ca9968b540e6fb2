// The failures of installing, removing or checking the file-manager entries, with stable codes.
import { MchError } from '../../common/errors.ts';

export type IntegrateErrorCode =
  /** `--command` is not a command line this module can turn into words, or names no program. */
  | 'INTEGRATION_BAD_COMMAND'
  /** A shared file (Thunar's `uca.xml`) is not in a shape that can be edited without risk to its other entries. */
  | 'INTEGRATION_FILE_INVALID'
  /** An entry could not be read, written or removed (permissions, a full disk). */
  | 'INTEGRATION_IO_FAILED'
  /** The entries are Linux file managers'; the desktop app installs the Windows and macOS ones. */
  | 'INTEGRATION_UNSUPPORTED_PLATFORM';

const TITLES: Record<IntegrateErrorCode, string> = {
  INTEGRATION_BAD_COMMAND: 'Unusable command',
  INTEGRATION_FILE_INVALID: 'File not understood',
  INTEGRATION_IO_FAILED: 'Could not change the file-manager entries',
  INTEGRATION_UNSUPPORTED_PLATFORM: 'Not available on this system',
};

export class IntegrateError extends MchError {
  declare readonly code: IntegrateErrorCode;

  constructor(code: IntegrateErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, TITLES[code], message, options);
  }
}

/** Runs a file operation; a failure becomes INTEGRATION_IO_FAILED naming the file and what was done. */
export async function guardedIo<T>(
  path: string,
  what: 'read' | 'write' | 'remove',
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof IntegrateError) throw error;
    const message = `Could not ${what} ${path}: ${(error as Error).message}.`;
    throw new IntegrateError('INTEGRATION_IO_FAILED', message, { cause: error });
  }
}
