// `mch-sync whoami`: the signed-in user as the identity provider sees them now, and where things are kept.
import { Session } from '../../auth/session.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { describeDevice, describeRemaining, table } from '../terminal/output.ts';

export interface WhoamiJson {
  user: { id: string; name: string; email: string };
  configUrl: string;
  device: { id: string; name: string; url: string | null } | null;
  /** ISO 8601; after a refresh if one was due. */
  tokenExpiresAt: string;
  secretStore: { kind: 'keychain' | 'file'; location: string };
  profile: string;
}

export async function runWhoami(
  context: CommandContext,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const session = await Session.open(context.auth);
  // userInfo first: it refreshes the token if due, so the expiry shown is the current one.
  const user = await session.userInfo(context.deps.signal);
  const tokens = await session.tokens.tokens();
  const { settings, store } = session;
  const device = settings.device;
  if (values['json'] === true) {
    const json: WhoamiJson = {
      user: { id: user.sub, name: user.name, email: user.email },
      configUrl: settings.configUrl,
      device: device === undefined ? null : { id: device.id, name: device.name, url: device.url ?? null },
      tokenExpiresAt: new Date(tokens.expiresAt).toISOString(),
      secretStore: { kind: store.kind, location: store.location },
      profile: context.profileDir,
    };
    context.print(JSON.stringify(json, null, 2));
    return 0;
  }
  const rows: Array<[string, string]> = [
    ['user', `${user.name} (${user.sub})`],
    ['email', user.email || '(none)'],
    ['config url', settings.configUrl],
    ['device', device === undefined ? 'none chosen (run `mch-sync devices`)' : describeDevice(device)],
    [
      'token expires',
      `${new Date(tokens.expiresAt).toISOString()} (${describeRemaining(tokens.expiresAt, Date.now())}; renewed automatically)`,
    ],
    ['secret store', `${store.kind}: ${store.location}`],
    ['profile', context.profileDir],
  ];
  for (const line of table(rows)) context.print(line);
  return 0;
}
