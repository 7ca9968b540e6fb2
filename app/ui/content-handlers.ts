// Contract calls about what is on the device: share links, text and photo search; and the window's settings and about.
import { dirname } from 'node:path';
import { clientVersion } from '../app-version.ts';
import type { ShareView } from '../../common/contract.ts';
import { ItemPlaces } from '../search/item-places.ts';
import { instantOf, parseDateRange } from '../search/photo-dates.ts';
import { searchPhotos } from '../search/photo-search.ts';
import { searchFiles } from '../search/text-search.ts';
import { describeShares } from '../share/describe-shares.ts';
import { ShareError } from '../share/share-errors.ts';
import { sharePaths, type SharedLink } from '../share/share-paths.ts';
import type { ContractHandlers } from './dispatch.ts';
import { checkSettingsChange } from './settings-check.ts';
import type { HandlerCore } from './handler-core.ts';

type Handlers = Pick<
  ContractHandlers,
  | 'app:about'
  | 'shares:list'
  | 'shares:create'
  | 'shares:revoke'
  | 'search:text'
  | 'search:photos'
  | 'settings:get'
  | 'settings:update'
>;

const VERSION = clientVersion();

export function contentHandlers(core: HandlerCore): Handlers {
  const listShares = async (): Promise<ShareView[]> => {
    const { client, pairs } = core.connection();
    const sharing = await core.connection().sharing();
    const described = await describeShares({ pairs: pairs.pairs(), client }, await sharing.list(), undefined);
    return described.shares.map((share) => ({
      shareId: share.shareId,
      url: share.url,
      createdAtMs: Date.parse(share.createdAt),
      items: share.items,
    }));
  };
  const sharesChanged = async (): Promise<void> => {
    // The file managers' "shared" emblems follow the link at once, not at the next look.
    core.sharesChanged();
    try {
      core.emit('shares:changed', await listShares());
    } catch (error) {
      core.log('warn', `the shares could not be listed again: ${String(error)}`);
    }
  };
  return {
    'app:about': () =>
      Promise.resolve({
        version: VERSION,
        profileDir: core.options.profileDir,
        logsDir: dirname(core.logFile),
        logFile: core.logFile,
      }),
    'shares:list': listShares,
    'shares:create': async ({ paths, fresh }) => {
      const outcome = await shareThroughCore(core, paths, { fresh });
      const view = (await listShares()).find((share) => share.shareId === outcome.shareId);
      void sharesChanged();
      return {
        shareId: outcome.shareId,
        url: outcome.url,
        createdAtMs: outcome.createdAtMs,
        items: view?.items ?? [],
        reused: outcome.reused,
      };
    },
    'shares:revoke': async ({ shareId }) => {
      const sharing = await core.connection().sharing();
      const share = (await sharing.list()).find((candidate) => candidate.shareId === shareId);
      if (share === undefined) throw new ShareError('SHARE_NOT_FOUND', 'This link is gone already.');
      await sharing.revoke(share);
      void sharesChanged();
      return {};
    },
    'search:text': async ({ query, limit, pageToken }) => {
      const { client, pairs } = core.connection();
      const places = new ItemPlaces({ pairs: pairs.pairs(), client });
      try {
        const result = await searchFiles(client, places, query, {
          ...(limit === null ? {} : { limit }),
          ...(pageToken === null ? {} : { pageToken }),
        });
        return {
          pageToken: result.pageToken,
          matches: result.matches.map((match) => ({
            id: match.file.id,
            name: match.file.name,
            isFolder: match.file.isFolder,
            size: match.file.size,
            mimeType: match.file.mimeType,
            mTimeMs: match.file.mTimeMs ?? null,
            devicePath: match.devicePath ?? null,
            localPath: match.localPath ?? null,
            fragments: match.fragments.map((fragment) => ({
              field: fragment.field ?? null,
              text: fragment.text,
              locations: fragment.locations.map(({ index, length }) => ({ index, length })),
            })),
          })),
        };
      } finally {
        places.close();
      }
    },
    'search:photos': async ({ from, to, limit }) => {
      const { client, pairs } = core.connection();
      const places = new ItemPlaces({ pairs: pairs.pairs(), client });
      try {
        const result = await searchPhotos(client, places, {
          range: parseDateRange(from, to),
          ...(limit === null ? {} : { limit }),
        });
        return {
          more: result.more,
          photos: result.photos.map(({ file, mediaTime, devicePath, localPath }) => ({
            id: file.id,
            name: file.name,
            size: file.size,
            mediaTimeMs: instantOf(mediaTime.wall),
            mediaTimeSource: mediaTime.source,
            width: file.image?.width ?? null,
            height: file.image?.height ?? null,
            cameraMake: file.image?.cameraMake ?? null,
            cameraModel: file.image?.cameraModel ?? null,
            devicePath: devicePath ?? null,
            localPath: localPath ?? null,
          })),
        };
      } finally {
        places.close();
      }
    },
    'settings:get': () => core.systemSettings.read(),
    'settings:update': async (change) => {
      checkSettingsChange(change);
      const before = await core.settings.read();
      const next = await core.systemSettings.update(change);
      core.emit('settings:changed', next);
      // The poll interval and the ignore rules are read when a pair's service starts.
      if (
        core.isConnected() &&
        (before.pollIntervalSeconds !== next.pollIntervalSeconds || before.ignoreRules !== next.ignoreRules)
      ) {
        await core.reconnect();
      }
      return next;
    },
  };
}

/**
 * The link of `paths` through the core's own sign-in, folder pairs and live services (whose control
 * sockets answer "sync now" for items not uploaded yet): the window's shares:create and the desktop
 * app's share action.
 */
export async function shareThroughCore(
  core: HandlerCore,
  paths: readonly string[],
  options: { fresh?: boolean; onWaiting?: (message: string) => void; signal?: AbortSignal } = {},
): Promise<SharedLink> {
  const connection = core.connection();
  return sharePaths(paths, {
    pairs: connection.pairs.pairs(),
    connect: async () => ({ client: connection.client, sharing: await connection.sharing() }),
    profileDir: core.options.profileDir,
    onWaiting: options.onWaiting ?? ((message) => core.log('info', message)),
    ...(options.fresh === undefined ? {} : { fresh: options.fresh }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
