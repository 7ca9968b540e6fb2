// `mch-sync unshare URL|SHARE_ID|PATH`: revokes a link (for a path, every link of exactly that item); the link stops working at once.
import { tellSharesChanged } from '../../file-state/state-client.ts';
import { lstatSync } from 'node:fs';
import type { Share } from '../../api/cloud/shares-client.ts';
import { ShareError } from '../../share/share-errors.ts';
import { lookUpSyncedItems, placeLocalItems } from '../../share/shared-items.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { withDeviceAdvice } from '../terminal/device-failures.ts';
import { openShareSession, type ShareSession } from './share-session.ts';

export const UNSHARE_USAGE = `Usage: mch-sync [--profile DIR] unshare URL|SHARE_ID|PATH

Revokes a share link: its permissions, then the link itself, which stops working at once.
  URL        a link as \`mch-sync share\` printed it
  SHARE_ID   the share's id (\`mch-sync shares --json\`)
  PATH       a synced file or folder: revokes every link of exactly that item (a link of
             several items is left alone and listed, to be revoked by its URL)
An argument that names an existing file or folder is read as a PATH.

Options:
  -h, --help show this help`;

export async function runUnshare(context: CommandContext, args: string[]): Promise<number> {
  const [target, ...extra] = args;
  if (target === undefined || target === '') throw new UsageError('Name the link to revoke.', UNSHARE_USAGE);
  if (extra.length > 0)
    throw new UsageError(`Unexpected argument "${extra[0]}": one link at a time.`, UNSHARE_USAGE);
  const revoked = await withDeviceAdvice('revoke the link', async () => {
    const session = await openShareSession(context);
    return isExistingPath(target)
      ? revokeLinksOfPath(context, session, target)
      : [await revokeOne(context, session, target)];
  });
  if (revoked.length > 0) await tellSharesChanged(context.profileDir);
  for (const share of revoked) {
    const count = share.fileIds.length === 1 ? '1 item' : `${share.fileIds.length} items`;
    context.print(`Revoked ${terminalSafe(share.url)} (${count}).`);
  }
  return 0;
}

async function revokeOne(context: CommandContext, session: ShareSession, target: string): Promise<Share> {
  const signal = context.deps.signal;
  const shareId = shareIdOf(target);
  const share = (await session.sharing.list(signal === undefined ? {} : { signal })).find(
    (candidate) => candidate.shareId === shareId || candidate.url === target,
  );
  if (share === undefined) {
    throw new ShareError(
      'SHARE_NOT_FOUND',
      `No link of yours on this device is ${JSON.stringify(target)} (revoked already?). \`mch-sync shares\` lists them.`,
    );
  }
  await session.sharing.revoke(share, signal);
  return share;
}

async function revokeLinksOfPath(
  context: CommandContext,
  session: ShareSession,
  path: string,
): Promise<Share[]> {
  const signal = context.deps.signal;
  const [item] = placeLocalItems(session.pairs, [path]);
  const synced = item === undefined ? undefined : lookUpSyncedItems([item]).synced[0];
  if (synced === undefined) {
    throw new ShareError('SHARE_NOT_FOUND', `${path} is not on the device yet, so it has no link.`);
  }
  const holding = await session.sharing.list({
    fileId: synced.id,
    ...(signal === undefined ? {} : { signal }),
  });
  const exactly = holding.filter((share) => share.fileIds.length === 1 && share.fileIds[0] === synced.id);
  const withOthers = holding.filter((share) => !exactly.includes(share));
  if (exactly.length === 0) {
    if (withOthers.length > 0) {
      throw new ShareError(
        'SHARED_WITH_OTHERS',
        `${path} has no link of its own; it is in ${withOthers.length} link(s) with other items, ` +
          `which \`mch-sync unshare URL\` revokes whole: ${withOthers.map((share) => share.url).join(', ')}`,
      );
    }
    throw new ShareError('SHARE_NOT_FOUND', `${path} has no share link.`);
  }
  for (const share of exactly) await session.sharing.revoke(share, signal);
  if (withOthers.length > 0) {
    context.warn(
      `${path} is also in ${withOthers.length} link(s) with other items, left alone: ` +
        withOthers.map((share) => share.url).join(', '),
    );
  }
  return exactly;
}

/** The share id of a link (`…/s/<id>`), or the argument itself. */
function shareIdOf(target: string): string {
  if (!/^https?:\/\//i.test(target)) return target;
  try {
    const segments = new URL(target).pathname.split('/').filter((segment) => segment !== '');
    return decodeURIComponent(segments.at(-1) ?? target);
  } catch {
    throw new UsageError(`${JSON.stringify(target)} is not a link.`, UNSHARE_USAGE);
  }
}

function isExistingPath(target: string): boolean {
  if (/^https?:\/\//i.test(target)) return false;
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}
