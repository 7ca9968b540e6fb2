// `mch-sync proxy --set URL [--user NAME] [--password-stdin] | --off | --show`: the profile's manual proxy.
import { parseProxyUrl, ProxyConfigError, type ProxyChoice } from '../../api/http/proxy-config.ts';
import {
  clearManualProxy,
  describeProxy,
  proxyChoiceFor,
  saveManualProxy,
} from '../../auth/proxy-setting.ts';
import { SettingsFile, type ManualProxySetting } from '../../profile/settings.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { readSecretFromStdin } from '../terminal/read-stdin.ts';

export const PROXY_USAGE = `Usage: mch-sync [--profile DIR] proxy [--set URL [--user NAME] [--password-stdin] | --off | --show] [--json]

Shows the proxy the client uses, or sets the profile's own. Without a proxy of the profile, the client
uses HTTPS_PROXY (for https addresses) and HTTP_PROXY (for http ones), or ALL_PROXY, and reaches the
hosts NO_PROXY names directly (comma-separated: a host and every name under it, an address or network
such as 10.0.0.0/8, host:port for one port only, * for every host). The app uses the system's proxy
when neither is set. A change applies to commands started after it; restart a running \`mch-sync run\`,
\`mch-sync ui\` or the app.

Options:
  --set URL          use this proxy for every request: http://HOST:PORT or https://HOST:PORT
  --user NAME        the proxy's user name (Basic authentication)
  --password-stdin   read the proxy's password from stdin; it is kept in the secret store (the system
                     keychain, or the profile's secrets file), never in settings or printed
  --off              stop using the profile's proxy (the environment's or the system's applies again)
  --show             show the proxy in use and where it comes from (the default)
  --json             machine-readable output
  -h, --help         show this help

Exit codes: 0 done, 1 failed, 2 usage error (nothing changed).`;

type Values = Record<string, string | boolean | undefined>;

interface ProxyJson {
  manual: { url: string; user: string | null; password: boolean } | null;
  inUse: {
    source: string;
    https: string | null;
    http: string | null;
    noProxy: string;
  } | null;
}

export async function runProxy(context: CommandContext, values: Values): Promise<number> {
  const url = values['set'];
  const off = values['off'] === true;
  const actions = [typeof url === 'string', off, values['show'] === true].filter(Boolean).length;
  if (actions > 1) throw new UsageError('Give one of --set, --off and --show.', PROXY_USAGE);
  if (typeof url !== 'string' && (values['user'] !== undefined || values['password-stdin'] === true)) {
    throw new UsageError('--user and --password-stdin go with --set URL.', PROXY_USAGE);
  }
  if (typeof url === 'string') await setProxy(context, url, values);
  else if (off) {
    const removed = await clearManualProxy(context.auth);
    if (values['json'] !== true) {
      context.print(removed ? "The profile's proxy is removed." : 'The profile has no proxy of its own.');
    }
  }
  await show(context, values['json'] === true);
  return 0;
}

async function setProxy(context: CommandContext, url: string, values: Values): Promise<void> {
  const user = values['user'];
  if (user === '') throw new UsageError('--user needs a name.', PROXY_USAGE);
  // Everything is checked before stdin is read or anything is written: bad input changes nothing.
  let inUrl: URL;
  try {
    parseProxyUrl(url, 'The proxy URL');
    inUrl = new URL(url.trim());
  } catch (error) {
    if (error instanceof ProxyConfigError) throw new UsageError(error.message, PROXY_USAGE);
    throw error;
  }
  const passwordStdin = values['password-stdin'] === true;
  if (passwordStdin && typeof user !== 'string' && inUrl.username === '') {
    throw new UsageError('--password-stdin needs the user name: add --user NAME.', PROXY_USAGE);
  }
  if (inUrl.password !== '') {
    context.warn(
      'the proxy password was given in the URL, where other users of this computer can read it in the process list: prefer --user NAME --password-stdin.',
    );
  }
  let password: string | undefined;
  if (passwordStdin) {
    password = await readSecretFromStdin(context.deps.stdin);
    if (password === '') throw new UsageError('--password-stdin read an empty password.', PROXY_USAGE);
  }
  try {
    await saveManualProxy(context.auth, {
      url,
      ...(typeof user === 'string' ? { user } : {}),
      ...(password === undefined ? {} : { password }),
    });
  } catch (error) {
    if (error instanceof ProxyConfigError) throw new UsageError(error.message, PROXY_USAGE);
    throw error;
  }
}

async function show(context: CommandContext, json: boolean): Promise<void> {
  const manual = (await new SettingsFile(context.profileDir).read()).proxy;
  const choice = await proxyChoiceFor(context.auth);
  if (json) {
    context.print(JSON.stringify(proxyJson(manual, choice), null, 2));
    return;
  }
  if (manual !== undefined) {
    const who = manual.user === undefined ? 'no user' : `user ${manual.user}`;
    const password =
      manual.passwordStore === undefined
        ? 'no password'
        : `password in the ${manual.passwordStore === 'keychain' ? 'system keychain' : 'secrets file'}`;
    context.print(`profile's proxy: ${manual.url} (${who}, ${password})`);
  }
  for (const line of describeProxy(choice)) context.print(line);
}

function proxyJson(manual: ManualProxySetting | undefined, choice: ProxyChoice | undefined): ProxyJson {
  return {
    manual:
      manual === undefined
        ? null
        : { url: manual.url, user: manual.user ?? null, password: manual.passwordStore !== undefined },
    inUse:
      choice === undefined
        ? null
        : {
            source: choice.source,
            https: choice.https?.label ?? null,
            http: choice.http?.label ?? null,
            noProxy: choice.noProxy.text,
          },
  };
}
