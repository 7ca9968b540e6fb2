// The limits and progress of one HTTP attempt: shared by the got path and the direct path.

export interface Timeouts {
  /** Connecting (and the TLS handshake). */
  connectMs: number;
  /** From the request sent to the answer's headers. */
  responseMs: number;
  /** The longest silence of the connection once it is open. */
  idleMs: number;
  /** A whole request whose answer is read into memory (streams have no total limit). */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  connectMs: 10_000,
  responseMs: 30_000,
  idleMs: 30_000,
  totalMs: 60_000,
};

/** JSON answers larger than this are refused (a listing page of 1000 files is far below it). */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface Progress {
  bytesDone: number;
  /** Unknown while the size is not known. */
  bytesTotal: number | undefined;
}
