// Progress of an executed plan: items and bytes done out of how many, and the transfers running now.
import { assertNever } from '../../../common/errors.ts';
import type { SyncProgress, TransferProgress } from '../../../common/sync-status.ts';
import type { Operation } from './operations.ts';

/** The bytes an operation moves, and which way; null for operations without content. */
export function transferOf(operation: Operation): { direction: 'up' | 'down'; bytes: number } | null {
  switch (operation.op) {
    case 'upload':
    case 'upload-content':
      return { direction: 'up', bytes: operation.local.size };
    case 'download':
    case 'download-content':
      return { direction: 'down', bytes: operation.remote.size };
    case 'remote-create-folder':
    case 'remote-move':
    case 'remote-delete':
    case 'local-mkdir':
    case 'local-move':
    case 'local-trash':
    case 'index-update':
    case 'index-remove':
      return null;
    default:
      return assertNever(operation, 'operation');
  }
}

export class PlanProgress {
  readonly #report: (progress: SyncProgress) => void;
  #itemsDone = 0;
  readonly #itemsTotal: number;
  /** Bytes of finished transfers. */
  #bytesFinished = 0;
  readonly #bytesTotal: number;
  readonly #running = new Map<string, TransferProgress>();

  constructor(
    itemsTotal: number,
    operations: readonly Operation[],
    report: (progress: SyncProgress) => void,
  ) {
    this.#itemsTotal = itemsTotal;
    this.#bytesTotal = operations.reduce((sum, operation) => sum + (transferOf(operation)?.bytes ?? 0), 0);
    this.#report = report;
    this.#emit();
  }

  /**
   * An operation that moves content began: its transfer is listed at once, `starting` until its bytes
   * flow (an upload reads the whole file first, which takes seconds for a large one).
   */
  starting(path: string, direction: 'up' | 'down', bytesTotal: number): void {
    this.#running.set(path, { path, direction, bytesDone: 0, bytesTotal, starting: true });
    this.#emit();
  }

  /** A transfer started; the returned function takes its byte progress. */
  started(path: string, direction: 'up' | 'down', bytesTotal: number): (bytesDone: number) => void {
    const transfer: TransferProgress = { path, direction, bytesDone: 0, bytesTotal };
    this.#running.set(path, transfer);
    this.#emit();
    return (bytesDone) => {
      transfer.bytesDone = Math.min(bytesDone, bytesTotal);
      this.#emit();
    };
  }

  /**
   * A transfer moved all its bytes while its item is not done yet (a download waiting to be put in
   * place): it no longer runs, and its bytes count as done.
   */
  transferEnded(path: string): void {
    const transfer = this.#running.get(path);
    if (transfer === undefined) return;
    this.#bytesFinished += transfer.bytesTotal;
    this.#running.delete(path);
    this.#emit();
  }

  /**
   * An item's operation ended (done or failed); its transfer, if any, is no longer running. Only the
   * operations counted in `itemsTotal` (those the activity lists) end as `counted`.
   */
  itemEnded(path: string, ended: 'counted' | 'not-counted'): void {
    const transfer = this.#running.get(path);
    if (transfer) {
      this.#bytesFinished += transfer.bytesTotal;
      this.#running.delete(path);
    }
    if (ended === 'counted') this.#itemsDone += 1;
    this.#emit();
  }

  #emit(): void {
    let inFlight = 0;
    for (const transfer of this.#running.values()) inFlight += transfer.bytesDone;
    this.#report({
      itemsDone: this.#itemsDone,
      itemsTotal: this.#itemsTotal,
      bytesDone: Math.min(this.#bytesTotal, this.#bytesFinished + inFlight),
      bytesTotal: this.#bytesTotal,
      transfers: [...this.#running.values()].map((transfer) => ({ ...transfer })),
    });
  }
}
