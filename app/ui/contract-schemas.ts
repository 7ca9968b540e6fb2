// The request of every contract call as a zod schema: what both hosts check before app/ sees an argument.
import { z } from 'zod';
import type { InvokeName } from '../../common/contract.ts';
import { STATE_FOLDER_NAME } from '../model/names.ts';
import { CONFLICT_POLICIES, type ConflictPolicy } from '../profile/pair-versions.ts';
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
/** A device folder below a pair's device folder: names between single slashes, none `.` or `..`. */
const folderPath = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => value.split('/').every((name) => name !== '' && name !== '.' && name !== '..'), {
    message: 'not a folder path below the pair (names between single slashes, no . or ..)',
  });
/** The same, or `''` for the pair's folder itself (where a tree starts). */
const treePath = z.union([z.literal(''), folderPath]);
const devicePath = z.string().startsWith('/').max(4096);
/** A file or folder below a pair's folder, never in its state folder (`.mch-sync`). */
const pairPath = folderPath.refine((value) => value.split('/')[0] !== STATE_FOLDER_NAME, {
  message: "not a synced path (the pair's own .mch-sync folder)",
});
/** A version's or a conflict's paths: one call settles or restores at most this many. */
const pairPaths = z.array(pairPath).min(1).max(10_000);
/** A threshold in bytes: 1 byte to 1 PB. */
const thresholdBytes = z.number().int().min(1).max(1e15);

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
  // On demand, every device file shows in the folder: nothing is left out of it.
  'pairs:add': z
    .strictObject({
      localRoot: path,
      remoteFolder: devicePath,
      excluded: z.array(folderPath).max(10_000).optional(),
      onDemand: z.boolean().optional(),
    })
    .refine((add) => add.onDemand !== true || (add.excluded ?? []).length === 0, {
      message: 'files on demand show every folder: none can be left out',
    }),
  'pairs:remove': z.strictObject({ pairId: id, keepLocalFiles: z.boolean() }),
  'pairs:setMetered': z.strictObject({ pairId: id, onMetered: z.enum(['pause', 'sync']) }),
  'sync:pause': z.strictObject({ pairId: id.nullable(), for: z.enum(['1h', 'tomorrow']).optional() }),
  'sync:resume': pairTarget,
  'sync:now': pairTarget,
  'sync:confirmDeletes': z.strictObject({ pairId: id, reason: holdReason }),
  'sync:restore': z.strictObject({ pairId: id, reason: holdReason }),
  'selection:list': z.strictObject({ pairId: id, path: treePath }),
  'selection:preview': z.strictObject({
    remoteFolder: devicePath,
    excluded: z.array(folderPath).max(10_000),
    path: treePath,
  }),
  // Leaving a folder out says what becomes of its copy here; including one has no such question.
  'selection:set': z.discriminatedUnion('include', [
    z.strictObject({ pairId: id, path: folderPath, include: z.literal(true), localCopy: z.null() }),
    z.strictObject({
      pairId: id,
      path: folderPath,
      include: z.literal(false),
      localCopy: z.enum(['remove', 'keep']),
    }),
  ]),
  'selection:askOver': z.strictObject({ pairId: id, bytes: thresholdBytes.nullable() }),
  'onDemand:support': empty,
  'onDemand:turnOn': z.strictObject({ pairId: id }),
  'onDemand:turnOff': z.strictObject({ pairId: id }),
  'onDemand:cacheLimit': z.strictObject({ pairId: id, bytes: thresholdBytes.nullable() }),
  'activity:list': pairTarget,
  'issues:list': pairTarget,
  'local:browse': z.strictObject({ path: path.nullable() }),
  'versions:list': z.strictObject({ localPath: path }),
  'versions:restore': z.strictObject({ pairId: id, path: pairPath, versionId: z.number().int().positive() }),
  'deleted:list': z.strictObject({ pairId: id.nullable(), query: z.string().max(1000).nullable() }),
  'deleted:restore': z.strictObject({ pairId: id, paths: pairPaths }),
  'conflicts:list': pairTarget,
  'conflicts:resolve': z.strictObject({
    pairId: id,
    copyPaths: pairPaths,
    keep: z.enum(['this', 'device', 'both']),
  }),
  'versions:usage': z.strictObject({ pairId: id }),
  // The ranges of the pair's record (app/profile/pair-versions.ts): refused here, never half saved.
  'versions:settings': z.strictObject({
    pairId: id,
    keepDays: z.number().int().min(1).max(3650),
    capBytes: thresholdBytes.nullable(),
    conflicts: z.enum(CONFLICT_POLICIES as [ConflictPolicy, ...ConflictPolicy[]]),
  }),
  'versions:clear': z.strictObject({ pairId: id }),
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
  'network:get': empty,
  // The words of a bad rate are the parser's (common/rate-text.ts), as for `mch-sync limits`.
  'network:setLimits': z.strictObject({ up: z.string().max(64), down: z.string().max(64) }),
  // A bad URL is the proxy check's to say in words (PROXY_INVALID); an empty user or password is sent as null.
  'network:setProxy': z.strictObject({
    url: z.string().min(1).max(2048).nullable(),
    user: z.string().min(1).max(256).nullable(),
    password: z.string().min(1).max(1024).nullable().optional(),
  }),
  'shell:openPath': z.strictObject({ path }),
  'shell:showItem': z.strictObject({ path }),
  'shell:openUrl': z.strictObject({ url: z.url({ protocol: /^https?$/ }) }),
} as const satisfies Record<InvokeName, z.ZodType>;
