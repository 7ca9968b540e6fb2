// The rules of `.mchignore` files (gitignore syntax, through `ignore`), nested the way Git nests .gitignore.
import ignore, { type Ignore } from 'ignore';
import type { RelativePath } from '../../model/items.ts';

/** The name of the file whose patterns say what is not synced, in any folder of the synced tree. */
export const IGNORE_FILE_NAME = '.mchignore';

interface Layer {
  /** The folder the file is in; its patterns are relative to it, as in Git. */
  base: RelativePath;
  matcher: Ignore;
}

export interface IgnoreRulesOptions {
  /** Match case-insensitively, as Git does on file systems that are (macOS, Windows). */
  ignoreCase?: boolean;
}

/**
 * The `.mchignore` files that apply in one folder: those of the folder and of every folder above it.
 * Immutable: `withFile` returns the rules for a subfolder, so a walk can hand each folder its own.
 */
export class IgnoreRules {
  readonly #layers: readonly Layer[];
  readonly #ignoreCase: boolean;

  private constructor(layers: readonly Layer[], ignoreCase: boolean) {
    this.#layers = layers;
    this.#ignoreCase = ignoreCase;
  }

  /** No rules at all. */
  static empty(options: IgnoreRulesOptions = {}): IgnoreRules {
    const ignoreCase = options.ignoreCase ?? (process.platform === 'darwin' || process.platform === 'win32');
    return new IgnoreRules([], ignoreCase);
  }

  /** Whether any rule is loaded (a walk with none skips matching entirely). */
  get isEmpty(): boolean {
    return this.#layers.length === 0;
  }

  /** These rules plus those of the `.mchignore` (its text) in `folder`. */
  withFile(folder: RelativePath, text: string): IgnoreRules {
    const matcher = ignore({ ignorecase: this.#ignoreCase }).add(text);
    return new IgnoreRules([...this.#layers, { base: folder, matcher }], this.#ignoreCase);
  }

  /**
   * Whether `path` is excluded. As in Git, a deeper file's rules win over a higher one's, and the last
   * matching line of a file wins, so `!keep.log` after `*.log` brings one file back. A folder that is
   * ignored is not walked, so nothing inside it can be brought back (also as in Git).
   */
  ignores(path: RelativePath, isFolder: boolean): boolean {
    let ignored = false;
    for (const layer of this.#layers) {
      // A file's rules apply below its own folder only.
      if (layer.base !== '' && !path.startsWith(`${layer.base}/`)) continue;
      const relative = layer.base === '' ? path : path.slice(layer.base.length + 1);
      // A trailing slash is how `ignore` learns that a pattern like `build/` may match.
      const result = layer.matcher.test(isFolder ? `${relative}/` : relative);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}
