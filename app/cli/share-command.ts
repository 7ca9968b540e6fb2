// `mch-sync share PATH...`: makes (or finds) the one link of the given synced items, prints it, and can copy it and say so in a notification.
import { copyToClipboard } from '../system/clipboard.ts';
import { notify } from '../system/notifications.ts';
import { knownFolderPairs } from '../profile/known-pairs.ts';
import {
  confirmOnDevice,
  lookUpSyncedItems,
  placeLocalItems,
  type SyncedItem,
} from '../share/shared-items.ts';
import { waitForUploads } from '../share/upload-wait.ts';
import { UsageError, type CommandContext } from './cli-context.ts';
import { withDeviceAdvice } from './device-failures.ts';
import { openShareSession } from './share-session.ts';

export const SHARE_USAGE = `Usage: mch-sync [--profile DIR] share PATH... [--new] [--copy] [--notify] [--json]

Prints a link that lets anyone read PATH (files or folders in a synced folder, the synced folder
itself included). Several paths make one link. Sharing the same items again gives the same link,
as long as it lives. An item not uploaded yet is synced first when live sync runs for its folder
(waiting up to a minute).

Options:
  --new      make a new link even if one of exactly these items exists
  --copy     put the link on the clipboard
  --notify   show a desktop notification that it was copied (or why it failed)
  --json     print {"url", "shareId", "items": [{"path", "id"}], "reused"}
  -h, --help show this help

Exit codes: 0 done, 1 failed (the message says what to do), 2 usage error.`;

type Values = Record<string, string | boolean | undefined>;

export interface ShareJson {
  url: string;
  shareId: string;
  items: Array<{ path: string; id: string }>;
  reused: boolean;
}

export async function runShare(context: CommandContext, values: Values, paths: string[]): Promise<number> {
  if (paths.length === 0) throw new UsageError('Name at least one file or folder to share.', SHARE_USAGE);
  const wantsNotice = values['notify'] === true;
  let result: ShareJson;
  try {
    result = await withDeviceAdvice('make the share link', () =>
      shareItems(context, paths, values['new'] === true),
    );
  } catch (error) {
    if (wantsNotice) await tellPerson(context, 'Could not make a share link', messageOf(error));
    throw error;
  }
  if (values['json'] === true) context.print(JSON.stringify(result, null, 2));
  else context.print(result.url);
  const what = describeItems(result.items);
  if (values['copy'] === true) {
    try {
      await copyToClipboard(result.url, { env: context.deps.env });
    } catch (error) {
      if (wantsNotice)
        await tellPerson(context, 'Share link not copied', `${messageOf(error)} The link: ${result.url}`);
      throw error;
    }
    if (values['json'] !== true) context.deps.stderr(`mch-sync: the link of ${what} is on the clipboard.\n`);
    if (wantsNotice) await tellPerson(context, 'Share link copied', `Anyone with the link can open ${what}.`);
  } else if (wantsNotice) {
    await tellPerson(context, 'Share link ready', `${result.url} opens ${what}.`);
  }
  return 0;
}

async function shareItems(context: CommandContext, paths: string[], fresh: boolean): Promise<ShareJson> {
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  // Paths are checked before anything is asked of the device: a refusal needs no sign-in.
  const items = placeLocalItems(pairs, paths);
  const session = await openShareSession(context, pairs);
  const signal = context.deps.signal;
  const looked = lookUpSyncedItems(items);
  let synced: SyncedItem[] = looked.synced;
  if (looked.notYet.length > 0) {
    const uploaded = await waitForUploads(looked.notYet, {
      profileDir: context.profileDir,
      onWaiting: (message) => context.deps.stderr(`mch-sync: ${message}\n`),
      ...(signal === undefined ? {} : { signal }),
    });
    const order = new Map(items.map((item, position) => [item.path, position]));
    synced = [...synced, ...uploaded].sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
  }
  // The same item given twice (by two spellings of one path) is one item of the link.
  const unique = [...new Map(synced.map((item) => [item.id, item])).values()];
  await confirmOnDevice(session.client, unique, signal);
  const outcome = await session.sharing.share(
    unique.map((item) => item.id),
    { fresh, ...(signal === undefined ? {} : { signal }) },
  );
  return {
    url: outcome.share.url,
    shareId: outcome.share.shareId,
    items: unique.map((item) => ({ path: item.path, id: item.id })),
    reused: outcome.reused,
  };
}

/** A notification when asked for; one that cannot be shown is a warning, never a failure of the share. */
async function tellPerson(context: CommandContext, title: string, body: string): Promise<void> {
  try {
    await notify({ title, body }, { env: context.deps.env });
  } catch (error) {
    context.warn(`no notification shown: ${messageOf(error)}`);
  }
}

function describeItems(items: ShareJson['items']): string {
  if (items.length === 1) return `"${baseName(items[0]?.path ?? '')}"`;
  return `${items.length} items`;
}

function baseName(path: string): string {
  return (
    path
      .split(/[\\/]/)
      .filter((part) => part !== '')
      .at(-1) ?? path
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
