// The single place that decides whether a principal may read or change an item (device-api.md §3).
import type { Statement } from 'better-sqlite3';
import type { FilePermValue } from '../common/wire/sharing.ts';
import type { Access, Principal } from './principals.ts';
import type { Db } from './db/database.ts';

// device-api.md §3: reads need ReadFile, WriteFile or FileOwner; changes WriteFile or FileOwner. The
// permission list itself needs ReadFilePerms (to read) or WriteFilePerms (to change), or FileOwner.
const valuesFor: Record<Access, ReadonlySet<FilePermValue>> = {
  read: new Set(['ReadFile', 'WriteFile', 'FileOwner']),
  write: new Set(['WriteFile', 'FileOwner']),
  readPerms: new Set(['ReadFilePerms', 'WriteFilePerms', 'FileOwner']),
  writePerms: new Set(['WriteFilePerms', 'FileOwner']),
};

/** Ancestor walks stop here; deeper trees than this do not occur and would be a bug. */
const MAX_DEPTH = 4096;

export class Permissions {
  readonly #grants: Statement<[string, string], { file_id: string; value: FilePermValue }>;
  readonly #parent: Statement<[string], { parent_id: string | null }>;

  constructor(db: Db) {
    this.#grants = db.prepare(
      'SELECT file_id, value FROM file_perms WHERE entity_id = ? AND entity_type = ?',
    );
    this.#parent = db.prepare('SELECT parent_id FROM items WHERE id = ?');
  }

  /**
   * A permission on a folder covers everything below it, so the item and each of its ancestors is
   * looked up among the entity's grants. An entity has few grants and a path is short, so this walk of
   * primary-key lookups is cheaper than one recursive query.
   */
  allows(principal: Principal, itemId: string, access: Access): boolean {
    // A link only ever reads (interface.md "Authentication" 4), whatever was granted to its entity.
    if (principal.kind === 'cloudShare' && access !== 'read') return false;
    const wanted = valuesFor[access];
    const granted = new Set<string>();
    const [entityId, entityType] =
      principal.kind === 'user' ? [principal.userId, 'user'] : [principal.authId, 'cloudShare'];
    // all(), not iterate(): an entity has few grants, and an iterator costs more than the rows.
    for (const grant of this.#grants.all(entityId, entityType)) {
      if (wanted.has(grant.value)) granted.add(grant.file_id);
    }
    if (granted.size === 0) return false;
    let id: string | null | undefined = itemId;
    for (let depth = 0; id && depth < MAX_DEPTH; depth += 1) {
      if (granted.has(id)) return true;
      id = this.#parent.get(id)?.parent_id;
    }
    return false;
  }
}
