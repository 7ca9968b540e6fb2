// A signed-in profile put together for a run: settings, secret store, token manager and the service clients.
import { MchError } from '../../common/errors.ts';
import type { UserInfo } from '../../common/wire/identity.ts';
import { ConfigClient, type ServiceUrls } from '../api/cloud/config-client.ts';
import { DeviceLookup } from '../api/cloud/device-lookup.ts';
import { IdentityClient } from '../api/cloud/identity-client.ts';
import type { ProxyChoice } from '../api/http/proxy-config.ts';
import { Transport } from '../api/http/transport.ts';
import {
  SettingsFile,
  type ChosenDevice,
  type ProfileSettings,
  type SignedInUser,
} from '../profile/settings.ts';
import { SignInRequiredError } from './auth-errors.ts';
import type { KeytarApi } from './secrets/keychain-store.ts';
import { proxyResolverFor } from './proxy-setting.ts';
import { openSecretStore, type SecretStore } from './secrets/secret-store.ts';
import { TokenManager } from './token-manager.ts';
import { tokenAccount, TokenVault } from './token-vault.ts';

/** What the client asks for at sign-in: everything it uses, and a refresh token (offline_access). */
export const SIGN_IN_SCOPE = 'openid email profile offline_access nas_read_write user_read device_read';

/** What every auth operation needs to know about where it runs; the CLI builds one per command. */
export interface AuthEnvironment {
  profileDir: string;
  env?: NodeJS.ProcessEnv;
  /** The keychain; the system's by default. */
  keychain?: KeytarApi;
  /** Shared by every client of the run (no token provider on it); given one without a proxy, the run's is added. */
  transport?: Transport;
  /** The system's proxy (the desktop app reads it through Electron): used when settings and variables name none. */
  systemProxy?: ProxyChoice;
  /** Warnings for people (the CLI prints them on stderr). */
  warn: (message: string) => void;
  now?: () => number;
}

/**
 * The base transport of an environment, without a token provider, through the run's proxy (the
 * profile's manual one, else HTTPS_PROXY/HTTP_PROXY/NO_PROXY, else the system's): every request of the
 * client is made from it. A proxy setting or variable that is not valid fails here, before any request.
 */
export async function baseTransport(environment: AuthEnvironment): Promise<Transport> {
  const base = (environment.transport ?? new Transport({ userAgent: 'mch-sync' })).withTokens(undefined);
  if (base.proxy !== undefined) return base;
  const proxy = await proxyResolverFor(environment);
  return proxy.choice === undefined ? base : base.withProxy(proxy);
}

export class Session {
  readonly settingsFile: SettingsFile;
  readonly settings: ProfileSettings & { user: SignedInUser; configUrl: string };
  readonly store: SecretStore;
  readonly tokens: TokenManager;
  readonly config: ConfigClient;
  /** With the token manager: requests through it carry the user's token and refresh on a 401. */
  readonly transport: Transport;
  readonly #base: Transport;
  #identity: IdentityClient | undefined;

  private constructor(
    environment: AuthEnvironment,
    settingsFile: SettingsFile,
    settings: Session['settings'],
    store: SecretStore,
    base: Transport,
  ) {
    this.settingsFile = settingsFile;
    this.settings = settings;
    this.store = store;
    this.#base = base;
    this.config = new ConfigClient({ configUrl: settings.configUrl, transport: this.#base });
    this.tokens = new TokenManager({
      // The identity address comes from the configuration, read only once a refresh is due.
      identity: { refresh: async (request) => (await this.identity()).refresh(request) },
      vault: new TokenVault(store, tokenAccount(environment.profileDir, settings.user.id)),
      warn: environment.warn,
      ...(environment.now === undefined ? {} : { now: environment.now }),
    });
    this.transport = this.#base.withTokens(this.tokens);
  }

  /** The profile's sign-in; SIGN_IN_REQUIRED when there is none. */
  static async open(environment: AuthEnvironment): Promise<Session> {
    const settingsFile = new SettingsFile(environment.profileDir);
    const settings = await settingsFile.read();
    const { user, configUrl, secretStore } = settings;
    if (user === undefined || configUrl === undefined || secretStore === undefined) {
      throw new SignInRequiredError(
        `Not signed in (profile ${environment.profileDir}): run \`mch-sync login --config-url URL\`.`,
      );
    }
    const store = await openSecretStore({
      profileDir: environment.profileDir,
      recorded: secretStore,
      warn: environment.warn,
      ...(environment.env === undefined ? {} : { env: environment.env }),
      ...(environment.keychain === undefined ? {} : { keychain: environment.keychain }),
    });
    const base = await baseTransport(environment);
    return new Session(environment, settingsFile, { ...settings, user, configUrl }, store, base);
  }

  async serviceUrls(signal?: AbortSignal): Promise<ServiceUrls> {
    return this.config.serviceUrls(signal);
  }

  async identity(signal?: AbortSignal): Promise<IdentityClient> {
    this.#identity ??= new IdentityClient({
      identityUrl: (await this.serviceUrls(signal)).identity,
      transport: this.#base,
    });
    return this.#identity;
  }

  async deviceLookup(signal?: AbortSignal): Promise<DeviceLookup> {
    const urls = await this.serviceUrls(signal);
    return new DeviceLookup({ deviceServiceUrl: urls.device, transport: this.transport });
  }

  /** The user as the identity provider sees them now; proves the stored sign-in still works. */
  async userInfo(signal?: AbortSignal): Promise<UserInfo> {
    const identity = await this.identity(signal);
    return withFreshToken(this.tokens, (token) => identity.userInfo(token, signal));
  }

  /** Saves the device chosen or re-probed, keeping everything else. */
  async saveDevice(device: ChosenDevice): Promise<void> {
    await this.settingsFile.update((current) => ({ ...current, device }));
  }
}

/**
 * Runs `call` with the current access token and, when the token is refused, once more with a
 * refreshed one: the same rule the transport applies, for calls that take the token as an argument.
 */
export async function withFreshToken<T>(
  tokens: TokenManager,
  call: (token: string) => Promise<T>,
): Promise<T> {
  const token = await tokens.accessToken();
  try {
    return await call(token);
  } catch (error) {
    if (!isRefused(error)) throw error;
  }
  try {
    return await call(await tokens.refreshAfterUnauthorized(token));
  } catch (error) {
    if (!isRefused(error)) throw error;
    throw new SignInRequiredError(
      `The sign-in was refused even after renewing it: run \`mch-sync login\` again.`,
      { cause: error },
    );
  }
}

function isRefused(error: unknown): boolean {
  return error instanceof MchError && error.code === 'AUTH_REQUIRED';
}
