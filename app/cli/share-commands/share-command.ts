// `mch-sync share PATH...`: makes (or finds) the one link of the given synced items, prints it, and can copy it and say so in a notification.
import { tellSharesChanged } from '../../file-state/state-client.ts';
import { copyToClipboard } from '../../system/clipboard.ts';
import { notify } from '../../system/notifications.ts';
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import { describeItems, SHARE_NOTICES, sharePaths } from '../../share/share-paths.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { withDeviceAdvice } from '../terminal/device-failures.ts';
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
    if (wantsNotice) await tellPerson(context, SHARE_NOTICES.failedTitle, messageOf(error));
    throw error;
  }
  if (!result.reused) await tellSharesChanged(context.profileDir);
  if (values['json'] === true) context.print(JSON.stringify(result, null, 2));
  else context.print(result.url);
  const what = describeItems(result.items);
  if (values['copy'] === true) {
    try {
      await copyToClipboard(result.url, { env: context.deps.env });
    } catch (error) {
      if (wantsNotice)
        await tellPerson(
          context,
          SHARE_NOTICES.notCopiedTitle,
          SHARE_NOTICES.notCopiedBody(messageOf(error), result.url),
        );
      throw error;
    }
    if (values['json'] !== true) context.deps.stderr(`mch-sync: the link of ${what} is on the clipboard.\n`);
    if (wantsNotice)
      await tellPerson(context, SHARE_NOTICES.copiedTitle, SHARE_NOTICES.copiedBody(result.items));
  } else if (wantsNotice) {
    await tellPerson(context, SHARE_NOTICES.readyTitle, SHARE_NOTICES.readyBody(result));
  }
  return 0;
}

async function shareItems(context: CommandContext, paths: string[], fresh: boolean): Promise<ShareJson> {
  const pairs = await knownFolderPairs(context.profileDir, context.warn);
  const signal = context.deps.signal;
  const link = await sharePaths(paths, {
    pairs,
    connect: () => openShareSession(context, pairs),
    profileDir: context.profileDir,
    onWaiting: (message) => context.deps.stderr(`mch-sync: ${message}\n`),
    fresh,
    ...(signal === undefined ? {} : { signal }),
  });
  return { url: link.url, shareId: link.shareId, items: link.items, reused: link.reused };
}

/** A notification when asked for; one that cannot be shown is a warning, never a failure of the share. */
async function tellPerson(context: CommandContext, title: string, body: string): Promise<void> {
  try {
    await notify({ title, body }, { env: context.deps.env });
  } catch (error) {
    context.warn(`no notification shown: ${messageOf(error)}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
