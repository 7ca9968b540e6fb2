// Fixed sample data of versions for the renderer's view tests: a file's versions, the files recently deleted, the conflict of the documents pair with both sides, and a pair's versions policy.
import type {
  ConflictView,
  DeletedFileView,
  FileVersionsView,
  PairVersionsView,
} from '../../common/contract.ts';
import { receiptPng } from './drawn-png.ts';

const HOME = '/home/ann';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export interface VersionsSample {
  /** versions:list by the file's path here; any other file has none. */
  files: Record<string, FileVersionsView>;
  deleted: DeletedFileView[];
  conflicts: ConflictView[];
  /** versions:usage of every pair. */
  usage: PairVersionsView;
}

/** A picture small enough to cross whole as a data URL (conflict-views.ts). */
const RECEIPT = `data:image/png;base64,${receiptPng(true).toString('base64')}`;

export function versionsSample(nowMs: number): VersionsSample {
  const report = `${HOME}/Documents/Letters/landlord (final).odt`;
  const docs = (path: string) => `${HOME}/Documents/${path}`;
  const deleted = (
    path: string,
    minutesAgo: number,
    size: number,
    why: [DeletedFileView['reason'], string] = ['deleted', 'deleted on the device'],
  ): DeletedFileView => ({
    pairId: 'documents',
    path,
    localPath: docs(path),
    size,
    deletedAtMs: nowMs - minutesAgo * MINUTE,
    reason: why[0],
    why: why[1],
    versions: path.endsWith('.ods') ? 3 : 1,
  });
  return {
    files: {
      [report]: {
        pairId: 'documents',
        path: 'Letters/landlord (final).odt',
        localPath: report,
        current: { size: 24_310, mTimeMs: nowMs - 8 * MINUTE },
        versions: [
          {
            id: 31,
            number: 1,
            reason: 'replaced',
            why: "replaced by the device's version",
            size: 23_902,
            mTimeMs: nowMs - 2 * DAY,
            keptAtMs: nowMs - 8 * MINUTE,
          },
          {
            id: 17,
            number: 2,
            reason: 'restored',
            why: 'replaced by a restore',
            size: 19_004,
            mTimeMs: nowMs - 6 * DAY,
            keptAtMs: nowMs - 2 * DAY,
          },
          {
            id: 9,
            number: 3,
            reason: 'conflict',
            why: 'conflict settled',
            size: 18_777,
            mTimeMs: nowMs - 9 * DAY,
            keptAtMs: nowMs - 6 * DAY,
          },
        ],
      },
    },
    deleted: [
      deleted('Taxes/2023/return.pdf', 21, 1_204_113),
      deleted('Taxes/2023/receipts/pharmacy.jpg', 21, 402_551),
      deleted('budget.ods', 3 * 60, 48_220),
      deleted('Notes/shopping (conflicted copy 2026-11-02 181500).md', 2 * 24 * 60, 233, [
        'conflict',
        'conflict settled',
      ]),
    ],
    conflicts: [
      {
        pairId: 'documents',
        copyPath: 'Notes/shopping (conflict from laptop).md',
        originalPath: 'Notes/shopping.md',
        madeAtMs: nowMs - 33 * MINUTE,
        copy: {
          path: 'Notes/shopping (conflict from laptop).md',
          localPath: docs('Notes/shopping (conflict from laptop).md'),
          size: 61,
          mTimeMs: nowMs - 35 * MINUTE,
          from: 'this-computer',
          fromWords: 'This computer',
          preview: { kind: 'text', lines: ['# Shopping', '', '- bread', '- oat milk', '- apples (6)', ''] },
        },
        original: {
          path: 'Notes/shopping.md',
          localPath: docs('Notes/shopping.md'),
          size: 48,
          mTimeMs: nowMs - 40 * MINUTE,
          from: 'device',
          fromWords: 'The device',
          preview: { kind: 'text', lines: ['# Shopping', '', '- bread', '- milk', ''] },
        },
      },
      {
        pairId: 'documents',
        copyPath: 'Scans/receipt (conflicted copy 2026-11-25 101500).png',
        originalPath: 'Scans/receipt.png',
        madeAtMs: nowMs - 34 * MINUTE,
        copy: {
          path: 'Scans/receipt (conflicted copy 2026-11-25 101500).png',
          localPath: docs('Scans/receipt (conflicted copy 2026-11-25 101500).png'),
          size: 1_890,
          mTimeMs: nowMs - 50 * MINUTE,
          from: 'other-computer',
          fromWords: 'Another computer',
          preview: { kind: 'image', dataUrl: RECEIPT },
        },
        original: {
          path: 'Scans/receipt.png',
          localPath: docs('Scans/receipt.png'),
          size: 2_400_118,
          mTimeMs: nowMs - 45 * MINUTE,
          from: 'device',
          fromWords: 'The device',
          preview: { kind: 'none', words: 'An image too large to show here: open it to compare.' },
        },
      },
    ],
    usage: {
      pairId: 'documents',
      keepDays: 30,
      capBytes: null,
      defaultCapBytes: 25_600_000_000,
      defaultCapWords: '5 % of the disk: 26 GB',
      conflicts: 'ask',
      count: 214,
      bytes: 1_830_000_000,
    },
  };
}
