// Issue 26's uploads that change while sent: big.bin rewritten, appended to or replaced while its body is on its way, and the check that nothing torn is kept.
import {
  appendFileSync,
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import type { IndexRow } from '../../../app/model/items.ts';
import type { PassReport } from '../../../app/sync/pass-report.ts';
import { absolute, saveTemporary, type LocalSide, type RemoteSide } from './apply.ts';
import { BIG_FILE, bigTag, bigVersion } from './bulk-tree.ts';
import type { TreeItem } from './model.ts';
import type { Ledger } from './ledger.ts';
import { showPath, type Violation } from './invariants.ts';
import type { UploadPlan } from './soak-plans.ts';
import { readDeviceTree } from './snapshot.ts';
import type { UploadTap } from './wire.ts';

/** What the engine's client is told for resumable seeds: small thresholds, so a few MiB take several requests. */
export const RESUMABLE_FOR_SEEDS = { thresholdBytes: 1024 * 1024, chunkBytes: 512 * 1024 };

/**
 * big.bin's story in one seed: version 0 made locally before the first pass; for a change in the pass
 * after the changes, version 1 written before that pass; then, while the body of the upload of the
 * version the pass sends is held by the relay, the next version. Every version is one the user wrote.
 */
export class UploadChange {
  readonly plan: UploadPlan;
  /** Every version of big.bin written, by number. */
  readonly versions: string[] = [];
  /** Violations seen at the moment the device answered an upload (torn bytes kept). */
  readonly violations: Violation[] = [];
  /** Whether the change was made, and in which pass (counted by the caller's `passes`). */
  firedInPass: number | undefined;
  readonly #seed: number;
  readonly #local: LocalSide;
  /** The device side, known once the seed's remote folder is made. */
  readonly #remote: () => RemoteSide;
  readonly #reported = new Set<string>();
  #ledger: Ledger | undefined;
  #target: number | undefined;
  #pass = 0;

  constructor(seed: number, plan: UploadPlan, local: LocalSide, remote: () => RemoteSide) {
    this.#seed = seed;
    this.plan = plan;
    this.#local = local;
    this.#remote = remote;
    this.versions.push(bigVersion(seed, 0, plan.size));
  }

  /** Version 0, for the initial tree (made locally whatever side the scenario's tree is made on). */
  baseItem(): TreeItem {
    return { path: BIG_FILE, kind: 'file', content: this.versions[0] ?? '' };
  }

  /** The pass that may meet the change begins (its number, for the record). */
  passStarts(pass: number): void {
    this.#pass = pass;
  }

  /**
   * From now on the first upload carrying the last version's bytes gets the change, recorded in
   * `ledger`. For the pass after the changes, version 1 is written first (an edit of the user's).
   */
  arm(ledger: Ledger, phase: 'first' | 'changes'): void {
    this.#ledger = ledger;
    if (phase === 'changes') {
      const next = bigVersion(this.#seed, 1, this.plan.size + 64);
      this.versions.push(next);
      ledger.localWrite(this.#local, BIG_FILE, next, () => writeFileSync(this.#path(), next));
    }
    this.#target = this.versions.length - 1;
  }

  /** The relay's tap: the change is made while the body that carries the armed version waits. */
  readonly tap: UploadTap = {
    onChunk: (_request, chunk) => {
      if (this.#target === undefined) return undefined;
      if (!chunk.toString('latin1').includes(bigTag(this.#seed, this.#target))) return undefined;
      this.#target = undefined;
      this.firedInPass = this.#pass;
      return Promise.resolve().then(() => this.#change());
    },
    onAnswer: (request, status) => {
      if (this.firedInPass === undefined || status < 200 || status >= 300) return;
      this.violations.push(
        ...this.checkDevice(`right after ${request.method} ${request.url.split('?')[0] ?? ''}`),
      );
    },
  };

  /** Every copy of big.bin on the device is a version the user wrote (each torn one said once). */
  checkDevice(when: string): Violation[] {
    const violations: Violation[] = [];
    const remote = this.#remote();
    for (const item of readDeviceTree(remote.device, remote.folderId)) {
      const bytes = item.content;
      if (bytes === undefined || !bytes.includes(`${this.#seed}:big v`) || this.versions.includes(bytes))
        continue;
      if (this.#reported.has(bytes)) continue;
      this.#reported.add(bytes);
      violations.push({
        code: 'torn',
        message: `${when}, the device holds ${showPath(item.path)} as ${describeBytes(bytes, this.#seed)}: no version the user wrote`,
      });
    }
    return violations;
  }

  #path(): string {
    return absolute(this.#local, BIG_FILE);
  }

  /** The user's change, made the plan's way, recorded in the ledger as an edit of theirs. */
  #change(): void {
    const ledger = this.#ledger;
    if (ledger === undefined) return;
    const number = this.versions.length;
    const old = this.versions.at(-1) ?? '';
    const path = this.#path();
    const how = this.plan.how;
    const next =
      how === 'append'
        ? old + bigVersion(this.#seed, number, 64 * 16)
        : bigVersion(this.#seed, number, how === 'rewrite' ? old.length - 64 * 40 : old.length);
    this.versions.push(next);
    ledger.localWrite(this.#local, BIG_FILE, next, () => {
      if (how === 'append') {
        appendFileSync(path, next.slice(old.length), 'latin1');
      } else if (how === 'replace') {
        const temporary = saveTemporary(this.#local, path);
        writeFileSync(temporary, next, 'latin1');
        renameSync(temporary, path);
      } else if (how === 'rewrite') {
        writeFileSync(path, next, 'latin1');
      } else {
        // New bytes over the old ones, in place: the same file, the same size (a database, an image editor).
        const fd = openSync(path, 'r+');
        try {
          writeSync(fd, Buffer.from(next, 'latin1'), 0, next.length, 0);
        } finally {
          closeSync(fd);
        }
      }
    });
  }

  /**
   * After the pass that met the change: a pass that says it synced big.bin, with no retry for it,
   * while its index records the file as it is now and the device holds other bytes, told the user
   * "synced" about a file that is not, and no later pass would see why.
   */
  checkPass(report: PassReport | Error, index: readonly IndexRow[]): Violation[] {
    if (report instanceof Error || report.status !== 'synced') return [];
    if (report.issues.some((issue) => issue.path === BIG_FILE && issue.kind !== 'warning')) return [];
    const row = index.find((entry) => entry.path === BIG_FILE);
    if (row === undefined) return [];
    let stats;
    try {
      stats = lstatSync(this.#path(), { bigint: true });
    } catch {
      return [];
    }
    const here = readFileSync(this.#path()).toString('latin1');
    const device = this.#remote().device;
    const item = device.items.get(row.remoteId);
    const there =
      item === undefined || item.blob === null
        ? undefined
        : readFileSync(device.blobs.path(item.blob)).toString('latin1');
    const recordsNow =
      row.inode === stats.ino.toString() &&
      row.localSize === Number(stats.size) &&
      row.localMtimeNs === stats.mtimeNs;
    if (!recordsNow || there === here) return [];
    return [
      {
        code: 'torn',
        message: `the pass that met the change of ${BIG_FILE} reported it synced and recorded it as it is on disk (${describeBytes(here, this.#seed)}), while the device holds ${there === undefined ? 'nothing' : describeBytes(there, this.#seed)}`,
      },
    ];
  }
}

/** Which versions' lines a file holds, in order: "v1 lines 0-20, then v2 lines 21-99". */
export function describeBytes(bytes: string, seed: number): string {
  const runs: string[] = [];
  let current: string | undefined;
  let from = 0;
  const lines = bytes.split('\n');
  lines.forEach((line, number) => {
    const version =
      new RegExp(`^${seed}:big (v\\d+) line`).exec(line)?.[1] ?? (line === '' ? undefined : '?');
    if (version === current) return;
    if (current !== undefined) runs.push(`${current} lines ${from}-${number - 1}`);
    current = version;
    from = number;
  });
  if (current !== undefined) runs.push(`${current} lines ${from}-${lines.length - 1}`);
  return `${bytes.length} bytes: ${runs.join(', then ')}`;
}
