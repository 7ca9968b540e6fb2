// Shares created but not yet complete, one file each under `<profile>/shares-unfinished/`, so that a crash or a failed undo never leaves a half link behind for good.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writePrivateFileAtomic } from '../profile/private-file.ts';

export const UNFINISHED_SHARES_DIR = 'shares-unfinished';

/** What undoing a share needs: the share, and the entity its permissions were granted to. */
export interface UnfinishedShare {
  shareId: string;
  authId: string;
  fileIds: string[];
  createdAtMs: number;
  /** The process making it; an entry of a process still running is not undone by another. */
  pid: number;
}

const entrySchema = z.object({
  version: z.literal(1),
  shareId: z.string().min(1),
  authId: z.string().min(1),
  fileIds: z.array(z.string()),
  createdAtMs: z.number(),
  pid: z.number().int(),
});

/**
 * The journal of the link-sharing flow: an entry is written right after the share is created and
 * removed once every permission is granted (or the share is undone). An entry found later belongs to
 * a link that was never given out, so it is undone.
 */
export class UnfinishedShares {
  readonly #dir: string;

  constructor(profileDir: string) {
    this.#dir = join(profileDir, UNFINISHED_SHARES_DIR);
  }

  async record(entry: UnfinishedShare): Promise<void> {
    await ensurePrivateDir(this.#dir);
    await writePrivateFileAtomic(this.#file(entry.shareId), `${JSON.stringify({ version: 1, ...entry })}\n`);
  }

  forget(shareId: string): void {
    rmSync(this.#file(shareId), { force: true });
  }

  /** Every entry; a damaged one is dropped (it cannot be undone without its ids). */
  list(): UnfinishedShare[] {
    let names: string[];
    try {
      names = readdirSync(this.#dir).filter((name) => name.endsWith('.json'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries: UnfinishedShare[] = [];
    for (const name of names) {
      const path = join(this.#dir, name);
      try {
        const { shareId, authId, fileIds, createdAtMs, pid } = entrySchema.parse(
          JSON.parse(readFileSync(path, 'utf8')),
        );
        entries.push({ shareId, authId, fileIds, createdAtMs, pid });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        rmSync(path, { force: true });
      }
    }
    return entries;
  }

  // Share ids come from the service: hashed, so any id makes a safe file name.
  #file(shareId: string): string {
    return join(this.#dir, `${createHash('sha256').update(shareId).digest('hex').slice(0, 32)}.json`);
  }
}
