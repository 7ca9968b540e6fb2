// `mch-sync login`: browser sign-in (default) or the password grant (--username with --password-stdin).
import { createInterface } from 'node:readline';
import type { BrowserSignIn } from '../../auth/browser-sign-in.ts';
import { login, type LoginResult, type SignInMethod } from '../../auth/login.ts';
import { SettingsFile } from '../../profile/settings.ts';
import { UsageError, type CommandContext } from '../terminal/cli-context.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { describeDevice } from '../terminal/output.ts';
import { readSecretFromStdin } from '../terminal/read-stdin.ts';
import { LOGIN_USAGE } from '../usage.ts';

type Values = Record<string, string | boolean | undefined>;

function checkConfigUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `--config-url must be an absolute URL such as https://config.example.com, got "${text}".`,
      LOGIN_USAGE,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`--config-url must be an http or https URL, got "${text}".`, LOGIN_USAGE);
  }
  return url.href;
}

export async function runLogin(context: CommandContext, values: Values): Promise<number> {
  const username = values['username'] as string | undefined;
  const passwordStdin = values['password-stdin'] === true;
  if (username !== undefined && !passwordStdin) {
    throw new UsageError(
      '--username needs --password-stdin: pipe the password in. Passwords are not taken as arguments, where other users of this computer could read them.',
      LOGIN_USAGE,
    );
  }
  if (passwordStdin && username === undefined) {
    throw new UsageError('--password-stdin goes with --username NAME.', LOGIN_USAGE);
  }
  if (username === '') throw new UsageError('--username needs a name.', LOGIN_USAGE);
  if (username !== undefined && values['no-browser'] === true) {
    throw new UsageError('--no-browser is for browser sign-in; leave it out with --username.', LOGIN_USAGE);
  }
  const given = values['config-url'] as string | undefined;
  const remembered =
    given === undefined ? (await new SettingsFile(context.profileDir).read()).configUrl : undefined;
  const configUrl = given !== undefined ? checkConfigUrl(given) : remembered;
  if (configUrl === undefined) {
    throw new UsageError(
      '--config-url is needed: this profile has not signed in before, so it does not know the service.',
      LOGIN_USAGE,
    );
  }

  let method: SignInMethod;
  if (username !== undefined) {
    const password = await readSecretFromStdin(context.deps.stdin).catch((error: unknown) => {
      throw new UsageError(
        `Could not read the password from stdin: ${(error as Error).message}.`,
        LOGIN_USAGE,
      );
    });
    if (password === '') {
      throw new UsageError('stdin was empty: pipe the password in, as in the example below.', LOGIN_USAGE);
    }
    method = { kind: 'password', username, password };
  } else {
    method = {
      kind: 'browser',
      onStarted: (signIn) => startBrowser(context, signIn, values['no-browser'] === true),
      ...(context.deps.signInTimeoutMs === undefined ? {} : { timeoutMs: context.deps.signInTimeoutMs }),
    };
  }
  const result = await login(context.auth, {
    configUrl,
    method,
    device: values['device'] as string | undefined,
    signal: context.deps.signal,
  });
  printResult(context, result);
  return 0;
}

/** Shows the address, opens the browser, and takes pasted addresses until the sign-in ends. */
async function startBrowser(
  context: CommandContext,
  signIn: BrowserSignIn,
  noBrowser: boolean,
): Promise<void> {
  const { print, warn, deps } = context;
  print(
    noBrowser
      ? 'Open this address in a browser to sign in:'
      : 'Opening the sign-in page in your browser. If it does not open, open this address:',
  );
  print(`  ${signIn.authorizeUrl}`);
  const pasted = deps.pastedAddresses ?? (deps.stdin.isTTY === true ? deps.stdin : undefined);
  if (pasted !== undefined) {
    print(
      'If the browser is on another computer, sign in there, then paste here the address it ends up on ' +
        `(it starts with ${new URL(signIn.redirectUri).origin}/) and press Enter.`,
    );
    const lines = createInterface({ input: pasted, terminal: false });
    lines.on('line', (line) => {
      if (line.trim() === '') return;
      const outcome = signIn.submitRedirectUrl(line);
      if (outcome === 'not-a-redirect') {
        print(
          'That is not the address of this sign-in: copy the whole address from the browser after signing in.',
        );
      } else if (outcome === 'unrelated') {
        print(
          'That address belongs to another sign-in attempt: use the address printed above and sign in again.',
        );
      }
    });
    const stop = (): void => {
      lines.close();
      // The terminal was only borrowed; pausing lets the process end once the sign-in is done.
      pasted.pause();
    };
    signIn.tokens().then(stop, stop);
  }
  if (noBrowser) return;
  print('Waiting for the sign-in in the browser (Ctrl+C to stop)...');
  await deps.openBrowser(signIn.authorizeUrl).catch((error: unknown) => {
    warn(`Could not open a browser (${(error as Error).message}): open the address above yourself.`);
  });
}

function printResult(context: CommandContext, result: LoginResult): void {
  const { user, device, store } = result;
  // A name from the device: one line, unable to drive the terminal.
  context.print(terminalSafe(`Signed in as ${user.name} (${user.id}).`));
  if (device !== undefined) context.print(`Device: ${describeDevice(device.device)}.`);
  context.print(`Tokens are kept in ${store.location}.`);
}
