// Why a share, a revocation or a lookup of shared items failed, with a stable code and a next step for people.
import { MchError } from '../../common/errors.ts';

export type ShareErrorCode =
  | 'NOT_IN_SYNCED_FOLDER'
  | 'IN_STATE_FOLDER'
  | 'LOCAL_ITEM_MISSING'
  | 'NOT_UPLOADED_YET'
  | 'SHARE_INCOMPLETE'
  | 'SHARE_NOT_FOUND'
  | 'SHARED_WITH_OTHERS';

const TITLES: Record<ShareErrorCode, string> = {
  NOT_IN_SYNCED_FOLDER: 'Not in a synced folder',
  IN_STATE_FOLDER: 'Not shareable',
  LOCAL_ITEM_MISSING: 'No such file',
  NOT_UPLOADED_YET: 'Not uploaded yet',
  SHARE_INCOMPLETE: 'Link not made',
  SHARE_NOT_FOUND: 'No such link',
  SHARED_WITH_OTHERS: 'Shared with other items',
};

export class ShareError extends MchError {
  declare readonly code: ShareErrorCode;

  constructor(code: ShareErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, TITLES[code], message, options);
  }
}
