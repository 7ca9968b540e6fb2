// Selective sync's refusals: a path that is not a device folder of the pair, each with a stable code.
import { MchError } from '../../common/errors.ts';

export type SelectionErrorCode =
  | 'SELECTION_PATH_OUTSIDE'
  | 'SELECTION_PATH_IS_ROOT'
  | 'SELECTION_PATH_MISSING'
  | 'SELECTION_NOT_A_FOLDER'
  | 'SELECTION_THRESHOLD_INVALID';

const TITLES: Record<SelectionErrorCode, string> = {
  SELECTION_PATH_OUTSIDE: 'Not in the folder pair',
  SELECTION_PATH_IS_ROOT: 'The whole folder',
  SELECTION_PATH_MISSING: 'Not on the device',
  SELECTION_NOT_A_FOLDER: 'Not a folder',
  SELECTION_THRESHOLD_INVALID: 'Not a size',
};

/** A selection change refused before anything was changed. */
export class SelectionError extends MchError {
  declare readonly code: SelectionErrorCode;

  constructor(code: SelectionErrorCode, message: string) {
    super(code, TITLES[code], message);
  }
}
