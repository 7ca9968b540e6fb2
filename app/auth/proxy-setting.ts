// The profile's manual proxy: its URL and user in settings, its password in the secret store, and the proxy a run uses.
import {
  chooseProxy,
  parseProxyUrl,
  ProxyConfigError,
  type ManualProxy,
  type ProxyChoice,
} from '../api/http/proxy-config.ts';
import { ProxyResolver } from '../api/http/proxy-resolver.ts';
import { SettingsFile, type ManualProxySetting } from '../profile/settings.ts';
import { openSecretStore, type SecretStore } from './secrets/secret-store.ts';
import type { KeytarApi } from './secrets/keychain-store.ts';
import type { SecretStoreKind } from '../profile/settings.ts';

/** What reading and changing the proxy needs of where it runs (a subset of session.ts's AuthEnvironment). */
export interface ProxyEnvironment {
  profileDir: string;
  env?: NodeJS.ProcessEnv;
  keychain?: KeytarApi;
  warn: (message: string) => void;
  /** The system's proxy (the desktop app's, from Electron's resolver): used when neither other one is set. */
  systemProxy?: ProxyChoice;
}

/** The keychain account of a profile's proxy password: one per profile folder. */
export function proxyPasswordAccount(profileDir: string): string {
  return `proxy ${profileDir}`;
}

function storeOf(environment: ProxyEnvironment, recorded: SecretStoreKind | undefined): Promise<SecretStore> {
  return openSecretStore({
    profileDir: environment.profileDir,
    recorded,
    warn: environment.warn,
    ...(environment.env === undefined ? {} : { env: environment.env }),
    ...(environment.keychain === undefined ? {} : { keychain: environment.keychain }),
  });
}

/** The manual proxy with its password, or undefined when none is set. */
export async function readManualProxy(environment: ProxyEnvironment): Promise<ManualProxy | undefined> {
  const setting = (await new SettingsFile(environment.profileDir).read()).proxy;
  if (setting === undefined) return undefined;
  let password: string | undefined;
  if (setting.passwordStore !== undefined) {
    const store = await storeOf(environment, setting.passwordStore);
    password = await store.get(proxyPasswordAccount(environment.profileDir));
    if (password === undefined) {
      environment.warn(
        `the proxy's password is missing from ${store.location}: set it again with \`mch-sync proxy --set ${setting.url} --user ${setting.user ?? 'NAME'} --password-stdin\`.`,
      );
    }
  }
  return { url: setting.url, user: setting.user, password };
}

/** What `mch-sync proxy --set` (or the window's settings) asks for. */
export interface ManualProxyRequest {
  url: string;
  /** Else the URL's own user, if it has one. */
  user?: string | undefined;
  /** Else the URL's own password, if it has one. */
  password?: string | undefined;
}

/**
 * Checks the proxy, then keeps it: the password in the secret store (the one the sign-in uses, else
 * the one a login would choose), the rest in settings. A proxy that is not valid changes nothing.
 */
export async function saveManualProxy(
  environment: ProxyEnvironment,
  request: ManualProxyRequest,
): Promise<ManualProxySetting> {
  const server = parseProxyUrl(request.url, 'The proxy URL');
  const inUrl = new URL(request.url.trim());
  const user = request.user ?? (inUrl.username === '' ? undefined : decodeURIComponent(inUrl.username));
  const password =
    request.password ?? (inUrl.password === '' ? undefined : decodeURIComponent(inUrl.password));
  if (user !== undefined && user.includes(':')) {
    throw new ProxyConfigError('The proxy user name has a ":", which Basic authentication cannot carry.');
  }
  if (password !== undefined && user === undefined) {
    throw new ProxyConfigError('A proxy password needs a user name: add --user NAME.');
  }
  const settingsFile = new SettingsFile(environment.profileDir);
  const current = await settingsFile.read();
  const account = proxyPasswordAccount(environment.profileDir);
  const setting: ManualProxySetting = { url: server.label };
  if (user !== undefined) setting.user = user;
  if (password !== undefined) {
    const store = await storeOf(environment, current.secretStore ?? current.proxy?.passwordStore);
    await store.set(account, password);
    setting.passwordStore = store.kind;
  }
  const previous = current.proxy?.passwordStore;
  await settingsFile.update((settings) => ({ ...settings, proxy: setting }));
  // A password no longer used goes, from whichever store held it.
  if (previous !== undefined && (password === undefined || previous !== setting.passwordStore)) {
    await (await storeOf(environment, previous)).delete(account);
  }
  return setting;
}

/** Removes the manual proxy and its password; the environment's or the system's applies again. */
export async function clearManualProxy(environment: ProxyEnvironment): Promise<boolean> {
  const settingsFile = new SettingsFile(environment.profileDir);
  const previous = (await settingsFile.read()).proxy;
  if (previous === undefined) return false;
  await settingsFile.update((settings) => {
    const next = { ...settings };
    delete next.proxy;
    return next;
  });
  if (previous.passwordStore !== undefined) {
    await (
      await storeOf(environment, previous.passwordStore)
    ).delete(proxyPasswordAccount(environment.profileDir));
  }
  return true;
}

/** The proxy a run uses: the manual one, else the environment's, else the system's. */
export async function proxyChoiceFor(environment: ProxyEnvironment): Promise<ProxyChoice | undefined> {
  return chooseProxy({
    manual: await readManualProxy(environment),
    env: environment.env ?? {},
    system: environment.systemProxy,
  });
}

/** A resolver for a run's transports. */
export async function proxyResolverFor(environment: ProxyEnvironment): Promise<ProxyResolver> {
  return new ProxyResolver(await proxyChoiceFor(environment));
}

/** The proxy for people: its label (never credentials) and where it came from. */
export function describeProxy(choice: ProxyChoice | undefined): string[] {
  if (choice === undefined) return ['proxy: none (every request goes direct)'];
  const lines = [`source: ${choice.source}`];
  if (choice.http === choice.https) lines.push(`proxy: ${choice.https?.label ?? 'none'}`);
  else {
    lines.push(`https proxy: ${choice.https?.label ?? 'none (direct)'}`);
    lines.push(`http proxy: ${choice.http?.label ?? 'none (direct)'}`);
  }
  lines.push(`no proxy for: ${choice.noProxy.text === '' ? '(none)' : choice.noProxy.text}`);
  return lines;
}
