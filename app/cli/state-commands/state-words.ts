// A state in words for people: what `mch-sync state` prints beside each path.
import type { FileStateAnswer, NotSyncedReason } from '../../../common/file-state.ts';

const REASONS: Record<NotSyncedReason, string> = {
  'name-clash': 'its name clashes with another item',
  ignored: 'left out by the ignore rules',
  'too-large': 'too large for the device',
  error: 'an error',
};

export function stateWords(answer: FileStateAnswer): string {
  const words = baseWords(answer);
  const from = answer.from === undefined ? '' : ` (${answer.from})`;
  return `${words}${from}${answer.shared ? ', shared by a link' : ''}`;
}

function baseWords(answer: FileStateAnswer): string {
  switch (answer.state) {
    case 'up-to-date':
      return 'up to date';
    case 'syncing-up':
      return 'uploading';
    case 'syncing-down':
      return 'downloading';
    case 'waiting':
      return 'waiting to sync';
    case 'conflict':
      return 'in conflict: both versions are kept';
    case 'not-synced': {
      const reason = answer.reason === undefined ? 'not synced' : `not synced: ${REASONS[answer.reason]}`;
      return answer.message === undefined ? reason : `${reason} (${answer.message})`;
    }
    case 'online-only':
      return 'online only: on the device, downloaded when opened';
    case 'kept':
      return 'kept on this computer';
    case 'excluded':
      return 'not synced here (selective sync)';
    case 'outside':
      return 'not in a synced folder';
  }
}
