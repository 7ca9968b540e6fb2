// The versions requests of the control socket and their answers, as checked where they arrive (what they do: app/versions/versions-actions.ts).
//
// Apart from what carries them out, so a command that only talks to the service (status, pause) does
// not load the restore and settle code with it.
import { z } from 'zod';
import type { VersionsAction, VersionsOutcome } from '../versions/versions-actions.ts';

const count = z.number().int().nonnegative();
const relativePath = z.string().max(4096);

export const versionsActionSchema: z.ZodType<VersionsAction> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('restore'),
    path: relativePath.min(1),
    number: z.number().int().positive().optional(),
    to: z.string().min(1).max(4096).optional(),
  }),
  z.object({ kind: z.literal('restore-deleted'), path: relativePath.min(1) }),
  z.object({ kind: z.literal('restore-since'), sinceMs: z.number(), folder: relativePath }),
  z.object({
    kind: z.literal('resolve'),
    path: relativePath.min(1),
    keep: z.enum(['this', 'device', 'both']),
  }),
  z.object({ kind: z.literal('clear') }),
]);

const restoreResultSchema = z.object({
  restoredTo: z.string(),
  path: z.string(),
  number: count,
  size: count,
  replacedKept: z.boolean(),
});

const sideSchema = z.object({ path: z.string(), size: count, mTimeMs: z.number(), from: z.string() });

export const versionsOutcomeSchema: z.ZodType<VersionsOutcome> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('restored'), restored: restoreResultSchema }),
  z.object({
    kind: z.literal('restored-deleted'),
    restored: z.array(restoreResultSchema),
    skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  }),
  z.object({
    kind: z.literal('resolved'),
    keep: z.enum(['this', 'device', 'both']),
    conflict: z.object({
      copyPath: z.string(),
      originalPath: z.string(),
      madeAtMs: z.number(),
      madeHere: z.boolean(),
      copy: sideSchema,
      original: sideSchema,
    }),
  }),
  z.object({ kind: z.literal('cleared'), count, bytes: count }),
]);
