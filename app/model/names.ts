// The names the client gives its own things inside the synced folder: its state folder and its temporary names.

/** The client's own folder inside the synced folder (trash, partial downloads...). */
export const STATE_FOLDER_NAME = '.mch-sync';

/**
 * Items parked by a pass under a temporary name: `.mch-moving-<n>-<name>` on disk (a cycle of local
 * moves), `.mch-moving-<hex>` on the device (a swap of remote names). A crash can leave them there.
 */
export const MOVING_PREFIX = '.mch-moving-';

/** Downloads are written to `.mch-dl-<random>` next to their target, then linked into place. */
export const DOWNLOAD_TEMP_PREFIX = '.mch-dl-';
