// Contract calls of a pair's versions policy: how long versions are kept, how much room they may take, who wins a conflict; the room they take now; and every version cleared.
import { statfs } from 'node:fs/promises';
import type { PairVersionsView } from '../../../common/contract.ts';
import { formatBytes } from '../../../common/units.ts';
import { readPairVersions, updatePairVersions, type PairVersions } from '../../profile/pair-versions.ts';
import { defaultCapBytes, versionsToThin } from '../../sync/versions/pass-versions.ts';
import { VersionStore } from '../../sync/versions/version-store.ts';
import type { ContractHandlers } from '../dispatch.ts';
import type { HandlerCore } from '../handler-core.ts';
import { versionsTarget, type VersionsTarget } from './versions-place.ts';

type Handlers = Pick<ContractHandlers, 'versions:usage' | 'versions:settings' | 'versions:clear'>;

export function policyHandlers(core: HandlerCore): Handlers {
  const profileDir = core.options.profileDir;
  return {
    'versions:usage': ({ pairId }) => usageView(core, versionsTarget(core, pairId)),
    'versions:settings': async ({ pairId, keepDays, capBytes, conflicts }) => {
      const target = versionsTarget(core, pairId);
      const policy = await updatePairVersions(profileDir, target.pair.localRoot, () => ({
        keepDays,
        capBytes,
        conflicts,
      }));
      // The engine reads the policy at each pass but thins at most hourly while nothing new is kept: a
      // lower cap or fewer days take effect now, and the use shown is the one that stays.
      await thinNow(target, policy);
      return usageView(core, target);
    },
    'versions:clear': async ({ pairId }) => {
      const target = versionsTarget(core, pairId);
      await target.change({ kind: 'clear' });
      return usageView(core, target);
    },
  };
}

function storeOf(target: VersionsTarget): VersionStore {
  return new VersionStore(target.place.root, target.place.index.versions);
}

async function thinNow(target: VersionsTarget, policy: PairVersions): Promise<void> {
  const store = storeOf(target);
  const capBytes = policy.capBytes ?? (await defaultCapBytes(target.place.root));
  const going = versionsToThin(store, policy, store.rows.usage().bytes, capBytes, Date.now());
  for (const row of going) await store.remove(row);
}

async function usageView(core: HandlerCore, target: VersionsTarget): Promise<PairVersionsView> {
  const policy = readPairVersions(core.options.profileDir, target.pair.localRoot);
  const root = target.place.root;
  const fallback = await defaultCapBytes(root);
  const { count, bytes } = target.place.index.versions.usage();
  return {
    pairId: target.pairId,
    keepDays: policy.keepDays,
    capBytes: policy.capBytes,
    defaultCapBytes: fallback,
    defaultCapWords: await capWords(root, fallback),
    conflicts: policy.conflicts,
    count,
    bytes,
  };
}

/** "5 % of the disk: 12.3 GB", the share read from the disk itself (a small disk gets more than 5 %). */
async function capWords(root: string, capBytes: number): Promise<string> {
  try {
    const disk = await statfs(root);
    const diskBytes = disk.blocks * disk.bsize;
    if (diskBytes > 0)
      return `${Math.round((capBytes / diskBytes) * 100)} % of the disk: ${formatBytes(capBytes)}`;
  } catch {
    // Said without the share below.
  }
  return `a share of the disk: ${formatBytes(capBytes)}`;
}
