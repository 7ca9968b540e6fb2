// `mch-sync logout`: revoke the refresh token, delete the stored tokens, forget the user and device.
import { logout } from '../../auth/login.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { CommandContext } from '../terminal/cli-context.ts';

export async function runLogout(context: CommandContext): Promise<number> {
  const result = await logout(context.auth, context.deps.signal);
  if (result.user === undefined) {
    context.print(`Not signed in (profile ${context.profileDir}): nothing to do.`);
    return 0;
  }
  if (result.revokeError !== undefined) {
    context.deps.stderr(
      `mch-sync: signed out on this computer, but the identity provider could not be told ` +
        `(${result.revokeError.message}). The old sign-in may keep working elsewhere until it is revoked: ` +
        'change your password to end it now.\n',
    );
    return 1;
  }
  context.print(
    terminalSafe(`Signed out ${result.user.name} (${result.user.id}); the stored tokens are deleted.`),
  );
  return 0;
}
