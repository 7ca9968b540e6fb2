// macOS's "Copy share link": the Finder Quick Action the app ships in its resources, copied to ~/Library/Services when the switch is on and removed when it is off (desktop-app.md §4).
import { cp, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { IntegrateError } from '../integrate/integrate-errors.ts';
import type { SystemSwitch } from '../system/system-switch.ts';

/** The installed workflow's folder name: what Finder's Services folder lists. */
export const QUICK_ACTION_NAME = 'Copy Share Link.workflow';

/**
 * What marks a workflow as ours: the line of build/macos's document.wflow that starts this app with the
 * selection. A workflow of the same name that lacks it is the person's own and is never touched.
 */
const OUR_COMMAND = /open -n -b org\.mchsync\.app --args --share "\$@"/;

export interface QuickActionOptions {
  /** The workflow in the app's resources (`<resources>/Copy Share Link.workflow`). */
  source: string;
  /** The person's home folder: the workflow goes to `<home>/Library/Services`. */
  home: string;
}

export class QuickActionSwitch implements SystemSwitch {
  readonly target: string;
  readonly #source: string;

  constructor(options: QuickActionOptions) {
    this.#source = options.source;
    this.target = join(options.home, 'Library', 'Services', QUICK_ACTION_NAME);
  }

  async isEnabled(): Promise<boolean> {
    return (await this.#ownership()) === 'ours';
  }

  /** On: copies (or brings up to date) our workflow; off: removes it. Someone else's is refused, never replaced. */
  async setEnabled(enabled: boolean): Promise<void> {
    const owner = await this.#ownership();
    if (owner === 'theirs') {
      throw new IntegrateError(
        'INTEGRATION_FILE_INVALID',
        `${this.target} is another workflow of the same name: rename it, then turn this on again.`,
      );
    }
    const staging = `${this.target}.mch-sync-${process.pid}`;
    try {
      if (!enabled) {
        if (owner === 'ours') await rm(this.target, { recursive: true, force: true });
        return;
      }
      // Copied beside it and renamed into place, so Finder never lists a half-written workflow.
      await mkdir(dirname(this.target), { recursive: true });
      await rm(staging, { recursive: true, force: true });
      await cp(this.#source, staging, { recursive: true, errorOnExist: false });
      if (owner === 'ours') await rm(this.target, { recursive: true, force: true });
      await rename(staging, this.target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true }).catch(() => {});
      throw new IntegrateError(
        'INTEGRATION_IO_FAILED',
        `${this.target} could not be ${enabled ? 'installed' : 'removed'}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  async #ownership(): Promise<'none' | 'ours' | 'theirs'> {
    try {
      await stat(this.target);
    } catch {
      return 'none';
    }
    try {
      const document = await readFile(join(this.target, 'Contents', 'document.wflow'), 'utf8');
      return OUR_COMMAND.test(document) ? 'ours' : 'theirs';
    } catch {
      return 'theirs';
    }
  }
}
