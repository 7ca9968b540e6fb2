// The keys of the index's meta table: where a pair's folders and its last pass are kept for everyone who reads the index.

/** Keys of the index's meta table the engine writes (`mch-sync status` reads them). */
export const META_REMOTE_ROOT = 'remoteRootId';
export const META_REMOTE_FOLDER = 'remoteFolder';
export const META_LOCAL_ROOT = 'localRoot';
/** A `StoredPassSummary` as JSON. */
export const META_LAST_PASS = 'lastPass';
/** When a pass last ended with both sides matching, ms since the epoch. */
export const META_LAST_SYNC = 'lastSyncAtMs';
/** The settled record of the last pass that left both sides matching, as JSON (sync/pass/quiet-pass.ts). */
export const META_SETTLED = 'settledPass';
/**
 * The exclusions (selective sync) this index was last made to match, and the local copies still to go
 * to the trash, as JSON (sync/selection/applied-selection.ts).
 */
export const META_SELECTION = 'selection';
