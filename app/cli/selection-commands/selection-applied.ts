// After a selection change: the running live sync is asked for a pass, else the words say when it applies.
import { askService } from '../../live-service/control-client.ts';
import { controlSocketPath } from '../../live-service/control-socket-path.ts';
import type { FolderPair } from '../../profile/folder-pairs.ts';
import type { CommandContext } from '../terminal/cli-context.ts';

/** Whether a live sync of the pair took the change at once (it was asked for a pass). */
export async function applyNow(context: CommandContext, pair: FolderPair): Promise<boolean> {
  const signal = context.deps.signal;
  const answer = await askService(
    controlSocketPath(context.profileDir, pair.localRoot),
    { op: 'sync-now' },
    signal === undefined ? {} : { signal },
  );
  return answer?.ok === true;
}

/** When the change reaches the disk, in words. */
export function whenApplied(running: boolean): string {
  return running ? 'the live sync does it now' : 'the next `mch-sync run` does it';
}
