// The "Copy share link" entries of app/integrate as a switch: installed with the host's own command (the app's `--share`, or `mch-sync share --copy --notify`), removed when turned off.
import { describeEntry, SHARE_WORDS } from './entry-description.ts';
import {
  installTarget,
  integrationTargets,
  removeTarget,
  targetState,
  type IntegrationTarget,
} from './install.ts';
import { IntegrateError } from './integrate-errors.ts';
import type { SystemSwitch } from '../system/system-switch.ts';

/** The word the app's entries end with: `<app> --share <selected paths>` (parseLaunchArgs). */
export const APP_SHARE_WORDS: readonly string[] = ['--share'];

export interface FileManagerEntriesOptions {
  /** Every word before the selected paths: `[<app>, --share]`, or `[node, bin/mch-sync.js, share, --copy, --notify]`. */
  command: readonly string[];
  profileDir: string;
  /** Whether `profileDir` is the default profile (else the entries carry `--profile`'s key in their names). */
  defaultProfile: boolean;
  env: NodeJS.ProcessEnv;
  home: string;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/**
 * Linux file managers' entries (Nautilus, Nemo and Caja extensions, a Nemo action, a KDE service menu,
 * Thunar's custom action), the same files `mch-sync integrate` writes: the same names, so the app
 * takes over the command line's entries instead of adding a second "Copy share link". Windows gets its
 * verbs from the installer and macOS a Quick Action in the app, so there this is not used.
 */
export class FileManagerEntries implements SystemSwitch {
  readonly targets: readonly IntegrationTarget[];
  readonly #log: FileManagerEntriesOptions['log'];

  constructor(options: FileManagerEntriesOptions) {
    const described = describeEntry({
      baseCommand: [],
      profileDir: options.profileDir,
      defaultProfile: options.defaultProfile,
    });
    // describeEntry adds `share --copy --notify` for the command line; the host gives its own words.
    // The app's `--share` can do nothing else: Dolphin and Thunar get "Copy share link" alone from it
    // (the python extensions ask the state service themselves). A host that is mch-sync itself
    // (`... share --copy --notify`) can run `act`.
    const shareWords = options.command.slice(-SHARE_WORDS.length);
    const isCli =
      options.command.length > SHARE_WORDS.length &&
      shareWords.every((word, index) => word === SHARE_WORDS[index]);
    const actCommand = isCli
      ? [...options.command.slice(0, -SHARE_WORDS.length), 'act', '--notify']
      : undefined;
    const description = { ...described, command: [...options.command], actCommand };
    this.targets = integrationTargets(description, { env: options.env, home: options.home });
    this.#log = options.log;
  }

  /** On when any entry of ours is there, even an outdated one (turning the switch on updates it). */
  async isEnabled(): Promise<boolean> {
    for (const target of this.targets) {
      const { state } = await targetState(target);
      if (state === 'installed' || state === 'outdated') return true;
    }
    return false;
  }

  /**
   * Installs or removes every entry. One that cannot be changed (a damaged uca.xml) is logged and the
   * others still change; only when none could be is it an error.
   */
  async setEnabled(enabled: boolean): Promise<void> {
    const failures: string[] = [];
    for (const target of this.targets) {
      try {
        if (enabled) await installTarget(target);
        else await removeTarget(target);
      } catch (error) {
        if (!(error instanceof IntegrateError)) throw error;
        failures.push(error.message);
        this.#log('warn', `file-manager entry ${target.id}: ${error.message}`);
      }
    }
    if (failures.length === this.targets.length && failures.length > 0) {
      throw new IntegrateError(
        'INTEGRATION_IO_FAILED',
        `No file-manager entry could be ${enabled ? 'installed' : 'removed'}: ${failures[0] ?? ''}`,
      );
    }
  }
}
