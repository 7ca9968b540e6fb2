// `mch-sync shares`: every link of the signed-in user on this device, with its items (where each is synced here) and when it was made.
import { describeShares, type SharedItemJson } from '../../share/describe-shares.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { withDeviceAdvice } from '../terminal/device-failures.ts';
import { openShareSession } from './share-session.ts';

export const SHARES_USAGE = `Usage: mch-sync [--profile DIR] shares [--json]

Lists your share links on this device, newest first: the link, when it was made, and each shared
item (its path here when it is synced, else its place on the device).

Options:
  --json     print {"shares": [{"shareId", "url", "createdAt", "items": [{"id", "name", "localPath",
             "devicePath"}]}]} (paths are null when unknown; a deleted item has a null name)
  -h, --help show this help`;

export type { SharesJson } from '../../share/describe-shares.ts';

export async function runShares(
  context: CommandContext,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const signal = context.deps.signal;
  const json = await withDeviceAdvice('list your share links', async () => {
    const session = await openShareSession(context);
    const shares = await session.sharing.list(signal === undefined ? {} : { signal });
    return describeShares(session, shares, signal);
  });
  if (values['json'] === true) {
    context.print(JSON.stringify(json, null, 2));
    return 0;
  }
  if (json.shares.length === 0) {
    context.print('No share links. Make one with `mch-sync share PATH`.');
    return 0;
  }
  for (const share of json.shares) {
    const count = share.items.length === 1 ? '1 item' : `${share.items.length} items`;
    context.print(`${terminalSafe(share.url)}  (made ${localTime(share.createdAt)}, ${count})`);
    // A name from the device or the disk stays on its line, whatever it holds.
    for (const item of share.items) context.print(`  ${terminalSafe(itemLine(item))}`);
  }
  return 0;
}

function itemLine(item: SharedItemJson): string {
  if (item.name === null) return `(deleted from the device: ${item.id})`;
  if (item.localPath !== null) return item.localPath;
  return `${item.devicePath ?? item.name} (on the device, not synced here)`;
}

function localTime(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}
