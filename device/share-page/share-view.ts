// What a share link may see: the share, its entity as a principal, and the items that entity may read.
import type { DeviceContext } from '../context.ts';
import { loadItem } from '../files/access.ts';
import { type CloudSharePrincipal, sharePrincipal } from '../http/auth.ts';
import { type HttpError, notFound } from '../http/errors.ts';
import type { ItemRow } from '../store/items.ts';
import type { ShareWithFiles } from '../store/shares.ts';

export interface OpenShare {
  share: ShareWithFiles;
  /** The cloudShare entity whose id is the share's authId: the link reads as it (device-api.md §4). */
  principal: CloudSharePrincipal;
  /** The path of the link, e.g. /s/{shareId}; every link of the page hangs off it. */
  basePath: string;
}

export function shareNotFound(): HttpError {
  return notFound('SHARE_NOT_FOUND', 'No such share.');
}

/** The share behind a link, looked up on every request so that deleting it ends the link at once. */
export function openShare(ctx: DeviceContext, shareId: string): OpenShare {
  const share = ctx.shares.get(shareId);
  if (!share) throw shareNotFound();
  // The path of the advertised link, so that links work behind a proxy that adds a path prefix.
  const basePath = new URL(ctx.urls().shareLink(share.id)).pathname;
  return { share, principal: sharePrincipal(share.auth_id), basePath };
}

/**
 * The share's items its entity may read now, in the owner's order. Items deleted since, or whose
 * permission was removed, are left out; with none left the link shows nothing at all.
 */
export function sharedItems(ctx: DeviceContext, open: OpenShare): ItemRow[] {
  return open.share.fileIds.flatMap((id) => {
    const row = ctx.items.getLive(id);
    return row && ctx.permissions.allows(open.principal, row.id, 'read') ? [row] : [];
  });
}

/** An item the link may read, through the device's one access check; anything else is a 404. */
export function loadSharedItem(ctx: DeviceContext, open: OpenShare, id: string): ItemRow {
  return loadItem(ctx, open.principal, id, 'read');
}

/**
 * The folders from the highest one the link may read down to `item` (inclusive). The permission
 * reaches down from a granted folder, so the readable ancestors form one unbroken chain.
 */
export function readableChain(ctx: DeviceContext, open: OpenShare, item: ItemRow): ItemRow[] {
  const chain: ItemRow[] = [item];
  for (const id of ctx.items.ancestry(item.id).slice(1)) {
    const row = ctx.items.getLive(id);
    if (!row || !ctx.permissions.allows(open.principal, row.id, 'read')) break;
    chain.unshift(row);
  }
  return chain;
}
