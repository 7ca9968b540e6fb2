// Finds the item a request names and checks the caller may read or change it.
import { ROOT_ALIAS } from '../../common/wire/device-api.ts';
import type { DeviceContext } from '../context.ts';
import { type Access, type Principal, requireScope } from '../http/auth.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import type { ItemRow } from '../store/items.ts';

/**
 * The item id a request means: `root` is the caller's root folder. A link share has no root, so for it
 * `root` stays as it is and names no item (a 404), never the owner's root.
 */
export function resolveId(principal: Principal, id: string): string {
  return id === ROOT_ALIAS && principal.kind === 'user' ? principal.rootId : id;
}

/**
 * The live item `id` (or the alias root) if the caller may access it. An item the caller may not even
 * read is a 404, so its existence is not revealed; one it may read but not change is a 403. For the
 * permission list (`readPerms`, `writePerms`), holding that right alone also makes the item visible.
 */
export function loadItem(ctx: DeviceContext, principal: Principal, id: unknown, access: Access): ItemRow {
  requireScope(principal, access);
  if (typeof id !== 'string' || id === '') throw badRequest('INVALID_ID', 'An item id is required.');
  const row = ctx.items.getLive(resolveId(principal, id));
  const allowed = row !== undefined && ctx.permissions.allows(principal, row.id, access);
  if (!row || (!allowed && (access === 'read' || !ctx.permissions.allows(principal, row.id, 'read')))) {
    throw notFound('FILE_NOT_FOUND', `No file or folder with id ${id}.`);
  }
  if (!allowed) {
    throw forbidden(
      'PERMISSION_DENIED',
      access === 'write'
        ? 'You may read this item but not change it.'
        : 'You may not see or change the permissions of this item.',
    );
  }
  return row;
}

/** Like loadItem, for an id that must name a folder (a parent or a listing). */
export function loadFolder(ctx: DeviceContext, principal: Principal, id: unknown, access: Access): ItemRow {
  const row = loadItem(ctx, principal, id, access);
  if (!row.is_dir) throw badRequest('NOT_A_FOLDER', `${String(id)} is a file, not a folder.`);
  return row;
}
