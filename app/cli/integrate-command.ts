// `mch-sync integrate --install|--remove|--status [--command CMD]`: the file managers' "Copy share link" entries for this user.
import { homedir } from 'node:os';
import { assertNever } from '../../common/errors.ts';
import { describeEntry } from '../integrate/entry-description.ts';
import { ownCommand, profileWords, resolveProgram, splitCommandLine } from '../integrate/entry-command.ts';
import {
  fileManagerFound,
  installTarget,
  integrationTargets,
  removeTarget,
  targetState,
  type IntegrationTarget,
  type TargetState,
} from '../integrate/install.ts';
import { IntegrateError } from '../integrate/integrate-errors.ts';
import { shellWord } from '../integrate/quoting.ts';
import { defaultProfileDir } from '../profile/profile-dir.ts';
import { ownBinPath } from './own-bin.ts';
import { UsageError, type CommandContext } from './terminal/cli-context.ts';

type Values = Record<string, string | boolean | undefined>;

export const INTEGRATE_USAGE = `Usage: mch-sync [--profile DIR] integrate --install|--remove|--status [--command CMD]

Adds "Copy share link" to the context menus of Nautilus, Nemo, Caja (through their python extensions,
shown only inside synced folders; Nemo without nemo-python gets a Nemo action instead), Dolphin and
other KDE file views (a service menu) and Thunar (a custom action). The entry runs
\`mch-sync share --copy --notify <selected paths>\`. Only this user's files change; in Thunar's
uca.xml only the mch-sync action is added or removed, the other actions are kept as they are.

Each synced folder of the profile also gets a place in the sidebars, named as the window names it:
a GTK bookmark (Nautilus, Nemo, Caja, Thunar, GTK file choosers) and a KDE place (Dolphin, KDE
dialogs). \`folders add\` and \`folders remove\` add and take out a pair's place while they are
installed; --remove takes out only ours: every other bookmark stays byte for byte.

Options:
  --install       install the entries, or bring them up to date (nothing changes when they are)
  --remove        remove the entries of this profile
  --status        show which entries are installed and up to date
  --command CMD   the program the entries run instead of this mch-sync (its absolute path, or a name
                  in PATH), with arguments if any: split into words as a shell would, but never run
                  through one, so quote a path with spaces: --command "'/opt/My Apps/mch-sync'"
  -h, --help      show this help

With a profile other than the default one, the entries pass --profile DIR, and their file names carry
a short key of the profile, so each profile has its own entries. File managers read the entries when
they start: restart them after --install (nautilus -q, nemo -q, caja -q, thunar -q).

Exit codes: 0 done, 1 an entry could not be changed (the others were), 2 usage error.`;

type Mode = 'install' | 'remove' | 'status';

export async function runIntegrate(context: CommandContext, values: Values): Promise<number> {
  const modes = (['install', 'remove', 'status'] as const).filter((mode) => values[mode] === true);
  const mode: Mode | undefined = modes.length === 1 ? modes[0] : undefined;
  if (mode === undefined) {
    throw new UsageError('Give exactly one of --install, --remove or --status.', INTEGRATE_USAGE);
  }
  // The entries are for the freedesktop file managers (Linux, and the BSDs that have them).
  if (process.platform === 'win32' || process.platform === 'darwin') {
    throw new IntegrateError(
      'INTEGRATION_UNSUPPORTED_PLATFORM',
      'These entries are for Linux file managers; on Windows and macOS the desktop app installs its own.',
    );
  }
  const env = context.deps.env;
  const defaultProfile = context.profileDir === defaultProfileDir(env);
  const base = [...commandWords(values['command'], env), ...profileWords(context.profileDir, defaultProfile)];
  const description = describeEntry({ baseCommand: base, profileDir: context.profileDir, defaultProfile });
  const targets = integrationTargets(description, { env, home: env['HOME'] ?? homedir() });
  const runs = `${[...description.command].map(shellWord).join(' ')} FILES...`;
  switch (mode) {
    case 'status':
      await printStatus(context, targets, runs);
      return 0;
    case 'install':
      context.print(`The entries run: ${runs}`);
      return await eachTarget(context, targets, async (target) => {
        const outcome = await installTarget(target);
        return outcome === 'written' ? 'written' : 'unchanged (already up to date)';
      });
    case 'remove':
      return await eachTarget(context, targets, async (target) => {
        const outcome = await removeTarget(target);
        if (outcome === 'removed') return 'removed';
        if (outcome === 'absent') return 'not installed';
        return 'left alone (not written by mch-sync)';
      });
    default:
      return assertNever(mode, 'mode');
  }
}

/** The command's program and first words: `--command` (usage error if unusable), else this mch-sync. */
function commandWords(text: string | boolean | undefined, env: NodeJS.ProcessEnv): string[] {
  if (typeof text !== 'string') return ownCommand({ execPath: process.execPath, binPath: ownBinPath() });
  try {
    return resolveProgram(splitCommandLine(text), { env, cwd: process.cwd() });
  } catch (error) {
    if (error instanceof IntegrateError) throw new UsageError(error.message, INTEGRATE_USAGE);
    throw error;
  }
}

/** Runs `action` on every target, printing one line each; a failure is reported and the rest still run. */
async function eachTarget(
  context: CommandContext,
  targets: readonly IntegrationTarget[],
  action: (target: IntegrationTarget) => Promise<string>,
): Promise<number> {
  let failed = 0;
  for (const target of targets) {
    try {
      context.print(line(target, await action(target)));
    } catch (error) {
      if (!(error instanceof IntegrateError)) throw error;
      failed += 1;
      context.print(line(target, 'FAILED'));
      context.deps.stderr(`mch-sync: ${error.message}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

async function printStatus(
  context: CommandContext,
  targets: readonly IntegrationTarget[],
  runs: string,
): Promise<void> {
  for (const target of targets) {
    const found = fileManagerFound(target, context.deps.env) ? 'found' : 'not found';
    context.print(line(target, `${describeState(await targetState(target))} (${target.program} ${found})`));
  }
  context.print(`Installed now, the entries would run: ${runs}`);
}

function describeState(state: TargetState): string {
  switch (state.state) {
    case 'installed':
      return 'installed, up to date';
    case 'outdated':
      return 'installed but outdated: run --install';
    case 'not-installed':
      return 'not installed';
    case 'invalid':
      return `unreadable: ${state.detail}`;
    default:
      return assertNever(state, 'target state');
  }
}

function line(target: IntegrationTarget, what: string): string {
  return `${target.id.padEnd(18)}${target.path}\n${' '.repeat(18)}${what}`;
}
