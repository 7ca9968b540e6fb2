// Which of many items the caller may read, asking Permissions.allows() as rarely as possible.
//
// Search checks thousands of items per request, often in a few folders. Every permission is a row of
// file_perms and one on a folder covers everything below it (device-api.md §3), so an item without a
// grant of its own is readable exactly when its parent is: only the nearest ancestor-or-self that
// carries some grant (anyone's) has to be asked, and folders are remembered. The answer is still
// allows()'s, so it stays the one place that decides.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database.ts';
import type { Principal } from '../http/auth.ts';
import type { Permissions } from '../permissions.ts';

/** Ancestor walks stop here, as in Permissions: deeper trees do not occur. */
const MAX_DEPTH = 4096;

export interface ReadableSource {
  db: Db;
  permissions: Permissions;
}

export class ReadableItems {
  readonly #permissions: Permissions;
  readonly #principal: Principal;
  readonly #parent: Statement<[string], { parent_id: string | null }>;
  readonly #granted: ReadonlySet<string>;
  readonly #decided = new Map<string, boolean>();

  constructor(source: ReadableSource, principal: Principal) {
    this.#permissions = source.permissions;
    this.#principal = principal;
    this.#parent = source.db.prepare('SELECT parent_id FROM items WHERE id = ?');
    const rows = source.db.prepare<[], { file_id: string }>('SELECT DISTINCT file_id FROM file_perms').all();
    this.#granted = new Set(rows.map((row) => row.file_id));
  }

  /** Whether the caller may read the item `id` whose parent is `parentId`. */
  allows(id: string, parentId: string | null): boolean {
    if (this.#granted.has(id)) return this.#ask(id);
    return parentId !== null && this.#folder(parentId);
  }

  #folder(id: string): boolean {
    const known = this.#decided.get(id);
    if (known !== undefined) return known;
    // Walk up to the first folder that carries a grant or whose answer is known, then remember the
    // answer for every folder on the way.
    const path: string[] = [];
    let current: string | null | undefined = id;
    let answer = false;
    for (let depth = 0; current && depth < MAX_DEPTH; depth += 1) {
      const cached = this.#decided.get(current);
      if (cached !== undefined) {
        answer = cached;
        break;
      }
      path.push(current);
      if (this.#granted.has(current)) {
        answer = this.#permissions.allows(this.#principal, current, 'read');
        break;
      }
      current = this.#parent.get(current)?.parent_id;
    }
    for (const folder of path) this.#decided.set(folder, answer);
    return answer;
  }

  #ask(id: string): boolean {
    let answer = this.#decided.get(id);
    if (answer === undefined) {
      answer = this.#permissions.allows(this.#principal, id, 'read');
      this.#decided.set(id, answer);
    }
    return answer;
  }
}
