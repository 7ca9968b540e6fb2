// The ways out of a hold, in the words that work where it is read: flags, `mch-sync resume`, buttons.
import { describe, expect, it } from 'vitest';
import { holdAdvice, holdAnswerLabels, holdWays } from '../../../../app/sync/hold-words.ts';
import type { PassHold } from '../../../../app/sync/pass-report.ts';

const ROOT = '/home/ann/My Docs';

function hold(reason: PassHold['reason'], local = 0, remote = 0): PassHold {
  return {
    reason,
    deletes: { local, localTotal: 100, remote, remoteTotal: 100 },
    what: 'What happened.',
    advice: 'What happened.',
  };
}

describe('holdWays', () => {
  it('names the flags for a run that exits, `mch-sync resume` for the service, the buttons for the window', () => {
    const emptied = hold('emptied-root', 0, 40);
    expect(holdWays(emptied, ROOT, 'command')).toBe(
      'If you deleted them on purpose, run again with --confirm-deletes and they are deleted on the device ' +
        'too. To bring them back from the device, run again with --restore.',
    );
    expect(holdWays(emptied, ROOT, 'service')).toContain(
      "run `mch-sync resume --folder '/home/ann/My Docs' --restore`",
    );
    expect(holdWays(emptied, ROOT, 'window')).toContain('choose "Restore them here"');
  });

  it('says which way a held mass delete goes, and what undoing it does', () => {
    expect(holdWays(hold('mass-delete', 0, 60), ROOT, 'command')).toContain(
      'To bring them back from the device instead, run again with --restore.',
    );
    expect(holdWays(hold('mass-delete', 60, 0), ROOT, 'command')).toContain(
      'To send them up to the device again instead',
    );
    expect(holdWays(hold('mass-delete', 60, 60), ROOT, 'window')).toContain('choose "Undo these deletes"');
  });

  it('a changed folder or device needs no answer once the right one is back, except where a run must be made again', () => {
    expect(holdWays(hold('folder-changed'), ROOT, 'service')).toContain(
      'put the right one back: nothing needs answering',
    );
    expect(holdWays(hold('folder-changed'), ROOT, 'command')).toContain(
      'put the right one back and run again',
    );
    expect(holdWays(hold('device-changed'), ROOT, 'window')).toContain('choose "Sync with this device"');
    expect(holdWays(hold('device-changed'), ROOT, 'window')).not.toContain('--');
  });

  it('a missing folder has no answer but mounting it', () => {
    expect(holdAdvice(hold('local-root-missing'), ROOT, 'service')).toBe(
      'What happened. If it is on a disk that is not mounted, mount it: syncing goes on by itself.',
    );
  });
});

describe('holdAnswerLabels', () => {
  it('words the buttons by the side that would lose items', () => {
    expect(holdAnswerLabels(hold('mass-delete', 0, 60))).toEqual({
      confirm: 'Delete them on the device too',
      restore: 'Restore them here',
    });
    expect(holdAnswerLabels(hold('mass-delete', 60, 0))).toEqual({
      confirm: 'Move them to the trash here too',
      restore: 'Put them back on the device',
    });
    expect(holdAnswerLabels(hold('device-changed')).confirm).toBeNull();
    expect(holdAnswerLabels(hold('local-root-missing'))).toEqual({ confirm: null, restore: null });
  });
});
