// The synced local folder as a pass reads it: its scans (the folder made on the very first pass), whether it is empty, how it compares names.
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexStore } from '../../index/index-store.ts';
import { folderOnDisk, recordFolderIdentity } from './folder-identity.ts';
import { probeNameTraits } from './local-names.ts';
import { STATE_FOLDER_NAME } from '../../model/names.ts';
import { scanLocalFolder, scanLocalFolderAsync, type ScanOptions, type ScanResult } from './scanner.ts';

export class LocalRoot {
  readonly path: string;
  readonly #index: IndexStore;
  #caseInsensitive: boolean | undefined;

  constructor(path: string, index: IndexStore, caseInsensitive?: boolean) {
    this.path = path;
    this.#index = index;
    this.#caseInsensitive = caseInsensitive;
  }

  scan(options: ScanOptions): ScanResult {
    const scan = scanLocalFolder(this.path, options);
    return this.#createsRoot(scan) ? scanLocalFolder(this.path, options) : scan;
  }

  /** The same scan, letting the event loop run between folders (a walk goes on beside it). */
  async scanBeside(options: ScanOptions): Promise<ScanResult> {
    const scan = await scanLocalFolderAsync(this.path, options);
    return this.#createsRoot(scan) ? scanLocalFolderAsync(this.path, options) : scan;
  }

  /**
   * Whether the whole local folder holds nothing to sync, which a scoped round cannot tell. Its own
   * listing first: a full scan is cheap exactly when the folder holds little.
   */
  isEmpty(): boolean {
    let names: string[];
    try {
      names = readdirSync(this.path);
    } catch {
      return false;
    }
    if (names.filter((name) => name !== STATE_FOLDER_NAME).length > 16) return false;
    return scanLocalFolder(this.path).root === 'empty';
  }

  /** Whether names that differ only in case are one here: probed once, in the state folder. */
  isCaseInsensitive(): boolean {
    if (this.#caseInsensitive === undefined) {
      const stateFolder = join(this.path, STATE_FOLDER_NAME);
      try {
        mkdirSync(stateFolder, { recursive: true });
      } catch {
        // A folder that cannot be written (a read-only disk) is read where it is: the probe says so.
        this.#caseInsensitive = probeNameTraits(this.path).caseInsensitive;
        return this.#caseInsensitive;
      }
      this.#caseInsensitive = probeNameTraits(stateFolder).caseInsensitive;
    }
    return this.#caseInsensitive;
  }

  /** A first pass may create the folder; once something was synced, a missing folder is never "all deleted". */
  #createsRoot(scan: ScanResult): boolean {
    if (scan.root !== 'missing' || this.#index.count() > 0) return false;
    mkdirSync(this.path, { recursive: true });
    // Recorded at once: from now on, a folder put in its place is told apart from it.
    const made = folderOnDisk(this.path);
    if (made !== undefined) recordFolderIdentity(this.#index, this.path, made);
    return true;
  }
}
