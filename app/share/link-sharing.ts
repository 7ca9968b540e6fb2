// The link-sharing flow of interface.md: one share for the selected items, a ReadFile permission for its cloudShare entity on each, reuse of a live link, undo of a half-made one, revocation.
import { ApiError } from '../../common/errors.ts';
import type { FilePermInput } from '../../common/wire/sharing.ts';
import type { FilePermsClient } from '../api/file-perms-client.ts';
import type { Share, SharesClient } from '../api/cloud/shares-client.ts';
import { ShareError } from './share-errors.ts';
import type { UnfinishedShare, UnfinishedShares } from './unfinished-shares.ts';

export interface LinkSharingOptions {
  shares: SharesClient;
  perms: FilePermsClient;
  /** The signed-in user (a share's `ownerId`). */
  ownerId: string;
  /** The device the items are on. */
  deviceId: string;
  unfinished: UnfinishedShares;
  now?: () => number;
}

export interface ShareOutcome {
  share: Share;
  /** True when an existing live link of exactly these items was returned. */
  reused: boolean;
}

/** How far back a share found after a lost answer may have been created by this attempt. */
const ADOPT_WINDOW_MS = 10 * 60_000;

/** Bounds the pages read of a listing, so a service that keeps handing out tokens cannot loop us. */
const MAX_PAGES = 1000;

export class LinkSharing {
  readonly #options: LinkSharingOptions;
  readonly #now: () => number;

  constructor(options: LinkSharingOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The link of exactly `fileIds`: the live one when there is one (unless `fresh`), else a new one.
   * Several items make one link.
   */
  async share(
    fileIds: readonly string[],
    options: { fresh?: boolean; signal?: AbortSignal } = {},
  ): Promise<ShareOutcome> {
    const ids = [...new Set(fileIds)];
    if (ids.length === 0)
      throw new ShareError('SHARE_NOT_FOUND', 'Nothing to share: name at least one item.');
    await this.finishUnfinished(options.signal);
    const existing = await this.#sameSelection(ids, options.signal);
    if (options.fresh !== true) {
      const live = await this.#liveOrRepaired(existing, options.signal);
      if (live !== undefined) return { share: live, reused: true };
    }
    const share = await this.#create(ids, new Set(existing.map((item) => item.shareId)), options.signal);
    await this.#grantAll(share, options.signal);
    return { share, reused: false };
  }

  /** Every share of the user on this device, newest first; with `fileId`, only those holding it. */
  async list(options: { fileId?: string; signal?: AbortSignal } = {}): Promise<Share[]> {
    const found: Share[] = [];
    let pageToken = '';
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await this.#options.shares.list({
        ...(options.fileId === undefined ? {} : { fileId: options.fileId }),
        pageToken,
        limit: 100,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      found.push(...answer.shares.filter((share) => this.#isOurs(share)));
      if (answer.pageToken === '' || answer.pageToken === pageToken) break;
      pageToken = answer.pageToken;
    }
    return found;
  }

  /** Revokes a link: the permissions first, then the share; the link stops working at once. */
  async revoke(share: Pick<Share, 'shareId' | 'authId' | 'fileIds'>, signal?: AbortSignal): Promise<void> {
    for (const fileId of share.fileIds) await this.#revokeGrants(fileId, share.authId, signal);
    await this.#options.shares.delete(share.shareId, signal);
    this.#options.unfinished.forget(share.shareId);
  }

  /**
   * Undoes shares a crash or a failed undo left half made (never given out). One that cannot be
   * undone now stays recorded for the next time; it never stops the caller.
   */
  async finishUnfinished(signal?: AbortSignal): Promise<void> {
    for (const entry of this.#options.unfinished.list()) {
      // Another command may be granting this one's permissions right now: not ours to undo.
      if (entry.pid !== process.pid && isAlive(entry.pid)) continue;
      try {
        await this.revoke(entry, signal);
      } catch (error) {
        if (signal?.aborted === true) throw error;
      }
    }
  }

  #isOurs(share: Share): boolean {
    return share.deviceId === this.#options.deviceId && share.ownerId === this.#options.ownerId;
  }

  /** The user's shares of exactly this set of items, newest first. */
  async #sameSelection(ids: readonly string[], signal: AbortSignal | undefined): Promise<Share[]> {
    const wanted = new Set(ids);
    const holding = await this.list({ fileId: ids[0] ?? '', ...(signal === undefined ? {} : { signal }) });
    return holding.filter(
      (share) => share.fileIds.length === wanted.size && share.fileIds.every((id) => wanted.has(id)),
    );
  }

  /**
   * The newest share of the selection whose every item carries its permission; else the newest one
   * repaired (its missing permissions granted), since a share of these items exists already.
   */
  async #liveOrRepaired(
    candidates: readonly Share[],
    signal: AbortSignal | undefined,
  ): Promise<Share | undefined> {
    let partial: Share | undefined;
    for (const share of candidates) {
      const missing = await this.#missingGrants(share, signal);
      if (missing.length === 0) return share;
      partial ??= share;
    }
    if (partial === undefined) return undefined;
    await this.#repair(partial, signal);
    return partial;
  }

  async #missingGrants(share: Share, signal: AbortSignal | undefined): Promise<string[]> {
    const missing: string[] = [];
    for (const fileId of share.fileIds) {
      const record = await this.#options.perms.findExact(readGrant(share, fileId), signal);
      if (record === undefined) missing.push(fileId);
    }
    return missing;
  }

  /**
   * Step 1. A create whose answer was lost is never sent again (a second share would pile up): the
   * share it may have made is looked for among the selection's shares not seen before.
   */
  async #create(
    ids: string[],
    seenBefore: ReadonlySet<string>,
    signal: AbortSignal | undefined,
  ): Promise<Share> {
    const startedAtMs = this.#now();
    const { ownerId, deviceId } = this.#options;
    let share: Share;
    try {
      share = await this.#options.shares.create({ ownerId, deviceId, fileIds: ids }, signal);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'OUTCOME_UNKNOWN')) throw error;
      const made = (await this.#sameSelection(ids, signal)).find(
        (candidate) =>
          !seenBefore.has(candidate.shareId) && candidate.dateCreated >= startedAtMs - ADOPT_WINDOW_MS,
      );
      if (made === undefined) throw error;
      share = made;
    }
    return share;
  }

  /**
   * An existing share whose grants are incomplete may have been handed out already: a failure to
   * complete it is reported, never answered by removing someone's link.
   */
  async #repair(share: Share, signal: AbortSignal | undefined): Promise<void> {
    try {
      for (const fileId of share.fileIds) {
        await this.#options.perms.grant(readGrant(share, fileId), signal === undefined ? {} : { signal });
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ShareError(
        'SHARE_INCOMPLETE',
        `The existing link of these items (${share.url}) is missing permissions that could not be granted ` +
          `now (${reason}). Try again when the device answers.`,
        { cause: error },
      );
    }
  }

  /** Step 2 for every item of a new share; on a failure it is undone, so no link shows part of the selection. */
  async #grantAll(share: Share, signal: AbortSignal | undefined): Promise<void> {
    await this.#options.unfinished.record(unfinishedEntry(share, this.#now()));
    try {
      for (const fileId of share.fileIds) {
        await this.#options.perms.grant(readGrant(share, fileId), signal === undefined ? {} : { signal });
      }
    } catch (error) {
      let undone = true;
      try {
        await this.revoke(share);
      } catch {
        undone = false;
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new ShareError(
        'SHARE_INCOMPLETE',
        undone
          ? `The link could not be completed (${reason}), so it was removed: nothing was shared. Try again.`
          : `The link could not be completed (${reason}) nor removed yet. It was not given out, and the next ` +
              `share command removes it. Try again when the device answers.`,
        { cause: error },
      );
    }
    this.#options.unfinished.forget(share.shareId);
  }

  async #revokeGrants(fileId: string, authId: string, signal: AbortSignal | undefined): Promise<void> {
    const entity = { id: authId, type: 'cloudShare' as const };
    for (let page = 0; page < MAX_PAGES; page += 1) {
      let answer;
      try {
        answer = await this.#options.perms.granting({
          fileId,
          entity,
          ...(signal === undefined ? {} : { signal }),
        });
      } catch (error) {
        // An item deleted from the device has no permissions left to revoke.
        if (error instanceof ApiError && error.code === 'NOT_FOUND') return;
        throw error;
      }
      // The search also lists permissions on ancestors; only this share's grant on the item itself is ours.
      const own = answer.filePerms.filter(
        (record) =>
          record.fileID === fileId && record.entity.id === authId && record.entity.type === 'cloudShare',
      );
      if (own.length === 0) return;
      for (const record of own) {
        await this.#options.perms.revoke(record.id, signal === undefined ? {} : { signal });
      }
      // Revoked records leave the search, so the next request starts over from the first page.
    }
  }
}

function readGrant(share: Pick<Share, 'authId'>, fileId: string): FilePermInput {
  return { fileID: fileId, entity: { id: share.authId, type: 'cloudShare' }, value: 'ReadFile' };
}

function unfinishedEntry(share: Share, nowMs: number): UnfinishedShare {
  return {
    shareId: share.shareId,
    authId: share.authId,
    fileIds: share.fileIds,
    createdAtMs: nowMs,
    pid: process.pid,
  };
}

/** Whether a process with this id runs (EPERM: it does, as another user's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
