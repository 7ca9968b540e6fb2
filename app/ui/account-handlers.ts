// Contract calls about the account: who is signed in, sign-in (password or browser) and out, the device, and the device's folders for choosing one.
import type { AccountView, InvokeMap, RemoteFolderView } from '../../common/contract.ts';
import { login, logout, type SignInMethod } from '../auth/login.ts';
import { reachDevice } from '../auth/device-choice.ts';
import { Session } from '../auth/session.ts';
import { SettingsFile } from '../profile/settings.ts';
import { ItemPlaces } from '../search/item-places.ts';
import type { ContractHandlers } from './dispatch.ts';
import type { HandlerCore } from './handler-core.ts';

type Handlers = Pick<
  ContractHandlers,
  | 'account:get'
  | 'account:signInPassword'
  | 'account:signInBrowser'
  | 'account:signOut'
  | 'devices:list'
  | 'devices:choose'
  | 'remote:listFolders'
  | 'remote:createFolder'
>;

export function accountHandlers(core: HandlerCore): Handlers {
  const signIn = async (configUrl: string, method: SignInMethod): Promise<AccountView> => {
    await core.disconnect();
    await login(core.auth, { configUrl, method });
    await reconnectQuietly(core);
    return changedAccount(core);
  };
  return {
    'account:get': () => accountView(core),
    'account:signInPassword': ({ configUrl, username, password }) =>
      signIn(configUrl, { kind: 'password', username, password }),
    'account:signInBrowser': ({ configUrl }) =>
      signIn(configUrl, {
        kind: 'browser',
        onStarted: async (started) => {
          await core.options.openExternal(started.authorizeUrl);
        },
      }),
    'account:signOut': async () => {
      await core.disconnect();
      await logout(core.auth);
      return changedAccount(core);
    },
    'devices:list': async () => {
      const session = await Session.open(core.auth);
      const lookup = await session.deviceLookup();
      const devices = await lookup.listDevices(session.settings.user.id);
      return devices.map((device) => ({
        id: device.deviceId,
        name: device.name,
        modelId: device.modelId,
        chosen: device.deviceId === session.settings.device?.id,
      }));
    },
    'devices:choose': async ({ deviceId }) => {
      const session = await Session.open(core.auth);
      const lookup = await session.deviceLookup();
      const reached = await reachDevice(lookup, await lookup.getDevice(deviceId));
      await core.disconnect();
      await session.saveDevice(reached.device);
      await reconnectQuietly(core);
      return changedAccount(core);
    },
    'remote:listFolders': async ({ folderId }) => {
      const { client } = core.connection();
      const folder = await client.getFile(folderId ?? 'root');
      const listing = await client.listAll(folder.id);
      const files = 'files' in listing ? listing.files : [];
      const path = await devicePathOf(core, folder);
      const children: RemoteFolderView[] = files
        .filter((file) => file.isFolder && !file.trashed)
        .map((file) => ({
          id: file.id,
          name: file.name,
          path: path === '/' ? `/${file.name}` : `${path}/${file.name}`,
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
      return {
        folder: { id: folder.id, name: folder.name, path },
        parentId: folder.parentID ?? null,
        children,
      };
    },
    'remote:createFolder': async ({ parentId, name }) => {
      const { client } = core.connection();
      const created = await client.createFolder({ parentId, name });
      const folder = await client.getFile(created.id);
      return { id: folder.id, name: folder.name, path: await devicePathOf(core, folder) };
    },
  };
}

/** Signed in without a device that answers (yet) is not a failure of the sign-in: the window says why. */
async function reconnectQuietly(core: HandlerCore): Promise<void> {
  try {
    await core.reconnect();
  } catch (error) {
    core.log('warn', error instanceof Error ? error.message : String(error));
  }
}

async function changedAccount(core: HandlerCore): Promise<AccountView> {
  const view = await accountView(core);
  core.emit('account:changed', view);
  return view;
}

export async function accountView(core: HandlerCore): Promise<InvokeMap['account:get']['response']> {
  const settings = await new SettingsFile(core.options.profileDir).read();
  return {
    signedIn: settings.user !== undefined,
    configUrl: settings.configUrl ?? null,
    user:
      settings.user === undefined
        ? null
        : { id: settings.user.id, name: settings.user.name, email: settings.user.email ?? null },
    device:
      settings.device === undefined
        ? null
        : {
            id: settings.device.id,
            name: settings.device.name,
            url: settings.device.url ?? null,
            connection: core.isConnected() ? core.connection().route.connection : null,
          },
    secretStore: settings.secretStore ?? null,
  };
}

async function devicePathOf(
  core: HandlerCore,
  folder: Parameters<ItemPlaces['placeOf']>[0],
): Promise<string> {
  if (folder.parentID === undefined) return '/';
  const places = new ItemPlaces({ pairs: [], client: core.connection().client });
  try {
    return (await places.placeOf(folder)).devicePath ?? `/${folder.name}`;
  } finally {
    places.close();
  }
}
