// The replaced-root phase of a soak seed, with syncOnce and live: every pass held with nothing changed, then the user's way back.
import type { IndexDb } from '../../../app/index/index-db.ts';
import type { PassReport } from '../../../app/sync/pass-report.ts';
import type { RemoteSide } from './apply.ts';
import { withoutBookkeeping } from './bookkeeping.ts';
import type { Violation } from './invariants.ts';
import type { LiveService } from './live-service.ts';
import type { LocalPlace } from './local-disk.ts';
import {
  checkMerged,
  checkUnchanged,
  syncedFilePaths,
  writeRequests,
  type RootChange,
  type SidesSnapshot,
} from './root-change.ts';
import type { EngineHosts } from './soak-host.ts';
import { readDeviceTree, readLocalTree, readVersionStore } from './snapshot.ts';

export interface RootPhaseResult {
  violations: Violation[];
  /** Versions the user wrote into the folder that is synced from now on (after a restore): the ledger's. */
  written: string[];
}

function sidesOf(place: LocalPlace, remote: RemoteSide): SidesSnapshot {
  return { local: readLocalTree(place.local.root), remote: readDeviceTree(remote.device, remote.folderId) };
}

/** Every file's version on either side now: after a restore each must be in the merged tree. */
function versionsOf(sides: SidesSnapshot): Set<string> {
  return new Set(
    [...withoutBookkeeping(sides.local), ...withoutBookkeeping(sides.remote)].flatMap((item) =>
      item.content === undefined ? [] : [item.content],
    ),
  );
}

function heldWrong(report: PassReport | Error, which: string): Violation[] {
  if (report instanceof Error) return [{ code: 'pass-failed', message: `${which} threw ${report.message}` }];
  if (report.hold?.reason === 'folder-changed') return [];
  return [
    {
      code: 'not-held',
      message: `${which} was ${report.status}${report.hold === null ? '' : ` (held: ${report.hold.reason})`}, not held as folder-changed`,
    },
  ];
}

/** With syncOnce: the change, the planned number of held passes, then put back or restored. */
export async function rootPhaseOnce(
  change: RootChange,
  place: LocalPlace,
  remote: RemoteSide,
  hosts: EngineHosts,
): Promise<RootPhaseResult> {
  change.apply(syncedFilePaths(place.local.root));
  const before = sidesOf(place, remote);
  const violations: Violation[] = [];
  for (let n = 1; n <= change.plan.heldPasses; n++) {
    const relay = hosts.host.relay;
    const mark = relay.seen.length;
    const report = await hosts.pass({ answerEmptied: false });
    violations.push(...heldWrong(report, `held pass ${n} after the folder changed`));
    const writes = writeRequests(relay.seen.slice(mark));
    if (writes.length > 0)
      violations.push({ code: 'held-wrote', message: `held pass ${n} sent ${writes.join(', ')}` });
  }
  violations.push(...checkUnchanged(before, sidesOf(place, remote), 'while the folder was held'));
  if (violations.length > 0) return { violations, written: [] };
  if (change.plan.answer === 'put-back') {
    change.putBack();
    return { violations, written: [] };
  }
  const held = versionsOf(before);
  const restored = await hosts.pass({ sync: { restore: true } });
  if (restored instanceof Error)
    return { violations: heldWrong(restored, 'the restoring pass'), written: [] };
  violations.push(...(await hosts.untilQuiet('restore')));
  if (violations.length === 0)
    violations.push(
      ...checkMerged(
        held,
        withoutBookkeeping(readLocalTree(place.local.root)),
        keptIn(place, hosts.host.index.db),
      ),
    );
  return { violations, written: change.writes.map((write) => write.content) };
}

/** Through the live service: held from the change on, passes seen, then put back (no answer) or restored. */
export async function rootPhaseLive(
  change: RootChange,
  place: LocalPlace,
  remote: RemoteSide,
  service: LiveService,
): Promise<RootPhaseResult> {
  // Idle, and the change made before the event loop turns: no pass began with the old folder.
  await service.live.whenIdle();
  const startedAt = Date.now();
  const mark = service.relay.seen.length;
  change.apply(syncedFilePaths(place.local.root));
  const before = sidesOf(place, remote);
  const violations: Violation[] = [];
  const hold = await service.heldFor(['folder-changed'], 10_000);
  if (hold === undefined) {
    const status = service.live.status();
    violations.push({
      code: 'not-held',
      message: `live: the service never held the changed folder as folder-changed (${status.state}${service.live.hold() === null ? '' : `, held: ${service.live.hold()?.reason}`})`,
    });
    return { violations, written: [] };
  }
  await service.morePasses(change.plan.heldPasses);
  service.passesSince(startedAt).forEach((pass, index) => {
    violations.push(...heldWrong(pass.report, `live pass ${index + 1} after the folder changed`));
  });
  const writes = writeRequests(service.relay.seen.slice(mark));
  if (writes.length > 0)
    violations.push({ code: 'held-wrote', message: `live, while held: ${writes.join(', ')}` });
  violations.push(...checkUnchanged(before, sidesOf(place, remote), 'live, while the folder was held'));
  if (violations.length > 0) return { violations, written: [] };
  const answeredAt = Date.now();
  if (change.plan.answer === 'put-back') {
    change.putBack();
    // Putting the right folder back needs no answer: the default answerer leaves folder-changed alone.
    violations.push(...(await service.quiet(answeredAt, 'the folder put back')));
    return { violations, written: [] };
  }
  const held = versionsOf(before);
  service.live.restore();
  violations.push(...(await service.quiet(answeredAt, 'restore')));
  if (violations.length === 0)
    violations.push(
      ...checkMerged(held, withoutBookkeeping(readLocalTree(place.local.root)), keptIn(place, service.db)),
    );
  return { violations, written: change.writes.map((write) => write.content) };
}

/** What the versions store holds (a conflict of the merge settled by the pair's policy goes there, issue 31). */
function keptIn(place: LocalPlace, index: IndexDb): string[] {
  return readVersionStore(place.local.root, index).files.map((file) => file.content);
}
