// Signing a profile in (browser or password) and out: tokens to the secret store, the rest to settings.json.
import { MchError } from '../../common/errors.ts';
import { ConfigClient } from '../api/cloud/config-client.ts';
import { DeviceLookup } from '../api/cloud/device-lookup.ts';
import { IdentityClient, type TokenSet } from '../api/cloud/identity-client.ts';
import type { Transport } from '../api/http/transport.ts';
import { SettingsFile, type ProfileSettings, type SignedInUser } from '../profile/settings.ts';
import { SignInRequiredError } from './auth-errors.ts';
import { BrowserSignIn } from './browser-sign-in.ts';
import { pickDevice, reachDevice, type ReachedDevice } from './device-choice.ts';
import { openSecretStore, type SecretStore } from './secrets/secret-store.ts';
import { baseTransport, SIGN_IN_SCOPE, type AuthEnvironment } from './session.ts';
import { storedTokensFrom, TokenManager } from './token-manager.ts';
import { tokenAccount, TokenVault, type StoredTokens } from './token-vault.ts';

export type SignInMethod =
  | { kind: 'password'; username: string; password: string }
  | {
      kind: 'browser';
      /** Called once the sign-in page's address exists: open it, show it, feed pasted addresses. */
      onStarted: (signIn: BrowserSignIn) => void | Promise<void>;
      timeoutMs?: number;
    };

export interface LoginRequest {
  configUrl: string;
  method: SignInMethod;
  /** A device id or name; without it the device chosen before, else the first one. */
  device?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface LoginResult {
  user: SignedInUser;
  store: Pick<SecretStore, 'kind' | 'location'>;
  expiresAt: number;
  /** Undefined when the account has no device (a warning said so). */
  device: ReachedDevice | undefined;
}

export async function login(environment: AuthEnvironment, request: LoginRequest): Promise<LoginResult> {
  const { profileDir, warn, signal } = { ...environment, signal: request.signal };
  const settingsFile = new SettingsFile(profileDir);
  const previous = await settingsFile.read();
  // Chosen before anyone types a password, so "no keychain" stops the login before it starts.
  const store = await openSecretStore({
    profileDir,
    warn,
    ...(environment.env === undefined ? {} : { env: environment.env }),
    ...(environment.keychain === undefined ? {} : { keychain: environment.keychain }),
  });
  const transport = await baseTransport(environment);
  const urls = await new ConfigClient({ configUrl: request.configUrl, transport }).serviceUrls(signal);
  const identity = new IdentityClient({ identityUrl: urls.identity, transport });

  const answer = await signIn(identity, request);
  const now = (environment.now ?? Date.now)();
  if (answer.refreshToken === undefined) {
    warn(
      'The identity provider gave no refresh token, so this sign-in ends when its access token expires ' +
        `(${new Date(answer.expiresAt).toISOString()}); run \`mch-sync login\` again then.`,
    );
  }
  const info = await identity.userInfo(answer.accessToken, signal);
  const user: SignedInUser = { id: info.sub, name: info.name, ...(info.email ? { email: info.email } : {}) };

  const vault = new TokenVault(store, tokenAccount(profileDir, user.id));
  const replaced = await previousSignIn(environment, previous, store);
  const tokens = storedTokensFrom(answer, now);
  await vault.save(tokens);
  if (replaced) await retire(environment, replaced, { vault, tokens, configUrl: request.configUrl });

  let device: ReachedDevice | undefined;
  try {
    device = await chooseDevice(environment, request, {
      transport,
      deviceServiceUrl: urls.device,
      userId: user.id,
      tokens: new TokenManager({ identity, vault, warn }),
      previousId: previous.device?.id,
    });
  } catch (error) {
    if (error instanceof MchError && error.code === 'ABORTED') throw error;
    // The sign-in itself worked and is kept; the device can be chosen later.
    warn(
      `Signed in, but your devices could not be listed (${(error as Error).message}). Run \`mch-sync devices\` to try again.`,
    );
  }
  await settingsFile.update((current) => ({
    ...current,
    configUrl: request.configUrl,
    user,
    secretStore: store.kind,
    device: device?.device,
  }));
  return { user, store: { kind: store.kind, location: store.location }, expiresAt: tokens.expiresAt, device };
}

async function signIn(identity: IdentityClient, request: LoginRequest): Promise<TokenSet> {
  const { method, signal } = request;
  if (method.kind === 'password') {
    return identity.passwordGrant(
      { username: method.username, password: method.password, scope: SIGN_IN_SCOPE },
      signal,
    );
  }
  const browser = await BrowserSignIn.start({
    identity,
    scope: SIGN_IN_SCOPE,
    signal,
    ...(method.timeoutMs === undefined ? {} : { timeoutMs: method.timeoutMs }),
  });
  try {
    await method.onStarted(browser);
  } catch (error) {
    browser.cancel();
    throw error;
  }
  return browser.tokens();
}

interface PreviousSignIn {
  vault: TokenVault;
  tokens: StoredTokens | undefined;
  configUrl: string | undefined;
}

/** The sign-in this login replaces, read before the new tokens may overwrite it. */
async function previousSignIn(
  environment: AuthEnvironment,
  previous: ProfileSettings,
  store: SecretStore,
): Promise<PreviousSignIn | undefined> {
  if (previous.user === undefined || previous.secretStore === undefined) return undefined;
  try {
    const oldStore =
      previous.secretStore === store.kind
        ? store
        : await openSecretStore({ ...environment, recorded: previous.secretStore });
    const vault = new TokenVault(oldStore, tokenAccount(environment.profileDir, previous.user.id));
    return { vault, tokens: await vault.load(), configUrl: previous.configUrl };
  } catch (error) {
    // An old keychain that is gone or a damaged entry must not stop a new sign-in.
    environment.warn(`The previous sign-in could not be read to sign it out (${(error as Error).message}).`);
    return undefined;
  }
}

/** Revokes the replaced sign-in's refresh token and deletes its secret, unless the new one took its place. */
async function retire(
  environment: AuthEnvironment,
  old: PreviousSignIn,
  current: { vault: TokenVault; tokens: StoredTokens; configUrl: string },
): Promise<void> {
  const samePlace = old.vault.store === current.vault.store && old.vault.account === current.vault.account;
  try {
    if (!samePlace) await old.vault.delete();
    const refreshToken = old.tokens?.refreshToken;
    if (refreshToken !== undefined && refreshToken !== current.tokens.refreshToken) {
      await revokeRefreshToken(environment, old.configUrl ?? current.configUrl, refreshToken);
    }
  } catch (error) {
    environment.warn(
      `The previous sign-in could not be fully signed out (${(error as Error).message}); the new one works.`,
    );
  }
}

async function chooseDevice(
  environment: AuthEnvironment,
  request: LoginRequest,
  context: {
    transport: Transport;
    deviceServiceUrl: string;
    userId: string;
    tokens: TokenManager;
    previousId: string | undefined;
  },
): Promise<ReachedDevice | undefined> {
  const lookup = new DeviceLookup({
    deviceServiceUrl: context.deviceServiceUrl,
    transport: context.transport.withTokens(context.tokens),
  });
  const devices = await lookup.listDevices(context.userId, request.signal);
  const record = pickDevice(devices, { requested: request.device, previousId: context.previousId });
  if (record === undefined) {
    environment.warn(
      request.device !== undefined && devices.length > 0
        ? `No device "${request.device}" in your account (${devices.map((d) => `${d.name} ${d.deviceId}`).join(', ')}): signed in without a device; run \`mch-sync login --device ID\` to pick one.`
        : 'Your account has no device yet: signed in without one. Set up the device, then run `mch-sync devices`.',
    );
    return undefined;
  }
  const reached = await reachDevice(lookup, record, request.signal);
  if (reached.unreachable !== undefined) {
    environment.warn(
      `Signed in, but the device ${record.name} did not answer (${reached.unreachable}). ` +
        'Check that it is on, then run `mch-sync devices`.',
    );
  }
  return reached;
}

async function revokeRefreshToken(
  environment: AuthEnvironment,
  configUrl: string,
  refreshToken: string,
  signal?: AbortSignal,
): Promise<void> {
  const transport = await baseTransport(environment);
  const urls = await new ConfigClient({ configUrl, transport }).serviceUrls(signal);
  await new IdentityClient({ identityUrl: urls.identity, transport }).revoke({ token: refreshToken }, signal);
}

export interface LogoutResult {
  /** Who was signed out; undefined when nobody was signed in. */
  user: SignedInUser | undefined;
  /** Why the refresh token could not be revoked (the local secrets are deleted anyway). */
  revokeError?: Error;
}

/**
 * Revokes the refresh token at the identity provider, then deletes the tokens and forgets the user
 * and device. The configuration URL stays, so the next `login` may leave it out.
 */
export async function logout(environment: AuthEnvironment, signal?: AbortSignal): Promise<LogoutResult> {
  const settingsFile = new SettingsFile(environment.profileDir);
  const settings = await settingsFile.read();
  const { user, secretStore, configUrl } = settings;
  if (user === undefined || secretStore === undefined) return { user: undefined };
  const store = await openSecretStore({ ...environment, recorded: secretStore });
  const vault = new TokenVault(store, tokenAccount(environment.profileDir, user.id));
  let tokens: StoredTokens | undefined;
  try {
    tokens = await vault.load();
  } catch (error) {
    // A damaged entry cannot be revoked, only deleted.
    if (!(error instanceof SignInRequiredError)) throw error;
  }
  let revokeError: Error | undefined;
  if (tokens?.refreshToken !== undefined && configUrl !== undefined) {
    try {
      await revokeRefreshToken(environment, configUrl, tokens.refreshToken, signal);
    } catch (error) {
      revokeError = error as Error;
    }
  }
  await vault.delete();
  await settingsFile.update((current) => ({
    ...current,
    user: undefined,
    secretStore: undefined,
    device: undefined,
  }));
  return revokeError === undefined ? { user } : { user, revokeError };
}
