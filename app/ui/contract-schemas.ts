// The request of every contract call as a zod schema: what both hosts check before app/ sees an argument.
import { z } from 'zod';
import type { InvokeName } from '../../common/contract.ts';
import type { HoldReason } from '../sync/pass-report.ts';

const empty = z.strictObject({});
const id = z.string().min(1).max(512);
const path = z.string().min(1).max(4096);
const pairTarget = z.strictObject({ pairId: id.nullable() });
/** Every hold reason, as a record: a reason added to the engine is a type error here until listed. */
const HOLD_REASONS: Record<HoldReason, true> = {
  'mass-delete': true,
  'emptied-root': true,
  'local-root-missing': true,
  'folder-changed': true,
  'device-changed': true,
};
const holdReason = z.enum(Object.keys(HOLD_REASONS) as [HoldReason, ...HoldReason[]]);

/** Strict objects: an unknown field is a mistake of the caller, refused rather than ignored. */
export const REQUEST_SCHEMAS = {
  'app:about': empty,
  'account:get': empty,
  'account:signInPassword': z.strictObject({
    configUrl: z.url({ protocol: /^https?$/ }),
    username: z.string().min(1).max(256),
    password: z.string().min(1).max(1024),
  }),
  'account:signInBrowser': z.strictObject({ configUrl: z.url({ protocol: /^https?$/ }) }),
  'account:signOut': empty,
  'devices:list': empty,
  'devices:choose': z.strictObject({ deviceId: id }),
  'remote:listFolders': z.strictObject({ folderId: id.nullable() }),
  'remote:createFolder': z.strictObject({ parentId: id, name: z.string().min(1).max(255) }),
  'pairs:list': empty,
  'pairs:check': z.strictObject({
    localRoot: path,
    remoteFolder: z.string().startsWith('/').max(4096).nullable(),
  }),
  'pairs:add': z.strictObject({ localRoot: path, remoteFolder: z.string().startsWith('/').max(4096) }),
  'pairs:remove': z.strictObject({ pairId: id, keepLocalFiles: z.boolean() }),
  'sync:pause': pairTarget,
  'sync:resume': pairTarget,
  'sync:now': pairTarget,
  'sync:confirmDeletes': z.strictObject({ pairId: id, reason: holdReason }),
  'sync:restore': z.strictObject({ pairId: id, reason: holdReason }),
  'activity:list': pairTarget,
  'issues:list': pairTarget,
  'local:browse': z.strictObject({ path: path.nullable() }),
  'shares:list': empty,
  'shares:create': z.strictObject({ paths: z.array(path).min(1).max(1000), fresh: z.boolean() }),
  'shares:revoke': z.strictObject({ shareId: id }),
  'search:text': z.strictObject({
    query: z.string().min(1).max(1000),
    limit: z.number().int().min(1).max(1000).nullable(),
    pageToken: z.string().max(4096).nullable(),
  }),
  'search:photos': z.strictObject({
    from: z.string().min(1).max(64),
    to: z.string().min(1).max(64),
    limit: z.number().int().min(1).max(10_000).nullable(),
  }),
  'settings:get': empty,
  'settings:update': z.strictObject({
    startAtLogin: z.boolean().optional(),
    fileManagerEntries: z.boolean().optional(),
    notifications: z.boolean().optional(),
    // Its range is the handler's to say, in words (settings-check.ts).
    pollIntervalSeconds: z.number().optional(),
    ignoreRules: z.string().max(65_536).optional(),
  }),
  'shell:openPath': z.strictObject({ path }),
  'shell:showItem': z.strictObject({ path }),
  'shell:openUrl': z.strictObject({ url: z.url({ protocol: /^https?$/ }) }),
} as const satisfies Record<InvokeName, z.ZodType>;
