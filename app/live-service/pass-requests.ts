// The live service's passes asked for: how requests made before a pass starts merge into one, and what that pass asks of the engine.
import type { LocalDeletions, SyncOptions } from '../sync/engine-options.ts';
import type { HoldReason } from '../sync/pass-report.ts';

/**
 * `revalidate`: everything, both sides (start, rescans, sync now). `poll`: every remote listing is
 * asked for; the disk only where the watcher or the device saw changes. `trust-cache`: watched local
 * changes only, cached listings trusted.
 */
export type PassMode = 'revalidate' | 'poll' | 'trust-cache';

const MODE_RANK: Record<PassMode, number> = { 'trust-cache': 0, poll: 1, revalidate: 2 };

/** What the user answered to a held pass (and which hold it answered), for the next pass only. */
export type HeldChoice = { choice: 'confirm-deletes' | 'restore'; answers: HoldReason | undefined } | null;

/**
 * The next pass asked for, merged: a revalidating request wins over a cached one, and a full local
 * scan (`scope` null) over the changed paths of watched events.
 */
export interface QueuedPass {
  mode: PassMode;
  choice: HeldChoice;
  scope: Set<string> | null;
}

/** The queued pass with one more request merged in (`paths`: the local paths it is about, if any). */
export function withRequest(
  queued: QueuedPass | null,
  mode: PassMode,
  choice: HeldChoice,
  paths: readonly string[] | undefined,
): QueuedPass {
  // A revalidating pass looks at everything; watched changes only at what they touched.
  const scope =
    mode === 'revalidate' || paths === undefined || (queued !== null && queued.scope === null)
      ? null
      : new Set([...(queued?.scope ?? []), ...paths]);
  return {
    mode: queued !== null && MODE_RANK[queued.mode] > MODE_RANK[mode] ? queued.mode : mode,
    // The user's latest answer to a hold counts; a request without one keeps it.
    choice: choice ?? queued?.choice ?? null,
    scope,
  };
}

/** What a pass of `mode` asks of the engine. */
export function passOptions(
  mode: PassMode,
  choice: HeldChoice,
  scope: string[] | undefined,
  signal: AbortSignal,
  deletions: LocalDeletions,
): SyncOptions {
  return {
    remote: mode === 'trust-cache' ? 'trust-cache' : 'revalidate',
    confirmDeletes: choice?.choice === 'confirm-deletes',
    restore: choice?.choice === 'restore',
    ...(choice?.answers === undefined ? {} : { answers: choice.answers }),
    signal,
    ...(scope === undefined || mode === 'revalidate' ? {} : { scope }),
    ...(mode === 'poll' ? { scopeRemoteChanges: true } : {}),
    deletions,
  };
}
