// The typed errors of versions, restore and conflicts: each a stable code, a title for the window, and what to do.
import { MchError } from '../../common/errors.ts';

export type VersionsErrorCode =
  'VERSION_NOT_FOUND' | 'NOTHING_DELETED' | 'DESTINATION_EXISTS' | 'NOT_A_CONFLICT' | 'CONFLICT_AMBIGUOUS';

const TITLES: Record<VersionsErrorCode, string> = {
  VERSION_NOT_FOUND: 'No such version',
  NOTHING_DELETED: 'Nothing deleted there',
  DESTINATION_EXISTS: 'Something is there already',
  NOT_A_CONFLICT: 'No conflict there',
  CONFLICT_AMBIGUOUS: 'Several conflicted copies',
};

/** Bad input to versions, restore or resolve: nothing was changed. */
export class VersionsError extends MchError {
  declare readonly code: VersionsErrorCode;

  constructor(code: VersionsErrorCode, message: string) {
    super(code, TITLES[code], message);
  }
}
