// What the share commands need: the profile's folder pairs, the device client and the link-sharing flow over both services.
import { FilePermsClient } from '../../api/file-perms-client.ts';
import { SharesClient } from '../../api/cloud/shares-client.ts';
import { knownFolderPairs } from '../../profile/known-pairs.ts';
import type { FolderPair } from '../../profile/folder-pairs.ts';
import { LinkSharing } from '../../share/link-sharing.ts';
import { UnfinishedShares } from '../../share/unfinished-shares.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { NoDeviceError } from '../../auth/device-address.ts';
import { openDeviceSession, type DeviceSession } from '../account-commands/device-session.ts';

export interface ShareSession extends DeviceSession {
  pairs: FolderPair[];
  sharing: LinkSharing;
}

export async function openShareSession(context: CommandContext, pairs?: FolderPair[]): Promise<ShareSession> {
  const opened = await openDeviceSession(context);
  const { session } = opened;
  const device = session.settings.device;
  // openDeviceSession refuses a profile without a device; this keeps the type honest.
  if (device === undefined)
    throw new NoDeviceError('This profile has no device yet: run `mch-sync devices`.');
  const urls = await session.serviceUrls(context.deps.signal);
  const sharing = new LinkSharing({
    shares: new SharesClient({ shareUrl: urls.share, transport: session.transport }),
    perms: new FilePermsClient(opened.client),
    ownerId: session.settings.user.id,
    deviceId: device.id,
    unfinished: new UnfinishedShares(context.profileDir),
  });
  return { ...opened, pairs: pairs ?? (await knownFolderPairs(context.profileDir, context.warn)), sharing };
}
