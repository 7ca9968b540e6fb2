// Who may call the device and what a request wants to do (device-api.md §2): types only, a leaf.

/** A signed-in user of the device. */
export interface UserPrincipal {
  kind: 'user';
  userId: string;
  rootId: string;
  scopes: ReadonlySet<string>;
}

/**
 * The entity of a link share (interface.md "Authentication" 4): it reads what was granted to its
 * `authId` and nothing else. It has no root, so the alias `root` names nothing for it.
 */
export interface CloudSharePrincipal {
  kind: 'cloudShare';
  authId: string;
  scopes: ReadonlySet<string>;
}

export type Principal = UserPrincipal | CloudSharePrincipal;

/**
 * What a request wants to do with an item: its content and metadata (`read`, `write`), or the
 * permissions set on it (`readPerms`, `writePerms`; device-api.md §3 "File permissions").
 */
export type Access = 'read' | 'write' | 'readPerms' | 'writePerms';
