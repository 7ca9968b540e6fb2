// The single place that decides whether a principal may read or change an item (device-api.md §3).
import type { Access, Principal } from './http/auth.ts';
import type { Db } from './db/database.ts';

const valuesFor: Record<Access, readonly string[]> = {
  read: ['ReadFile', 'WriteFile', 'FileOwner'],
  write: ['WriteFile', 'FileOwner'],
};

export class Permissions {
  readonly #statements: Record<Access, ReturnType<Db['prepare']>>;

  constructor(db: Db) {
    // A permission on a folder covers everything below it, so look at the item and all its ancestors.
    const make = (access: Access): ReturnType<Db['prepare']> =>
      db.prepare(
        `WITH RECURSIVE chain(id, parent_id) AS (
           SELECT id, parent_id FROM items WHERE id = @itemId
           UNION ALL
           SELECT i.id, i.parent_id FROM items i JOIN chain c ON i.id = c.parent_id
         )
         SELECT 1 FROM file_perms p JOIN chain c ON p.file_id = c.id
         WHERE p.entity_id = @entityId AND p.entity_type = @entityType
           AND p.value IN (${valuesFor[access].map((value) => `'${value}'`).join(', ')})
         LIMIT 1`,
      );
    this.#statements = { read: make('read'), write: make('write') };
  }

  allows(principal: Principal, itemId: string, access: Access): boolean {
    const entity = { entityId: principal.userId, entityType: 'user' };
    return this.#statements[access].get({ itemId, ...entity }) !== undefined;
  }
}
