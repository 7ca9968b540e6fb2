// How far V8 lets the sync process's heap grow past what its last full collection kept.
import { setFlagsFromString } from 'node:v8';

/**
 * V8 sets the next full collection at up to 4× the heap the last one kept when collecting is cheap
 * next to the program's own work, which it is for a pass: at 1,000,000 files a first pass that adopts
 * a tree already on both sides kept 293 MB at its last full collection, then grew to 960 MB of heap
 * (1,162 MB RSS) of which about 650 MB was live. At 10% the same pass peaks at 868 MB RSS and a quiet
 * pass takes about 0.2 s more of 3 s (docs/benchmarks.md, "Sync pass at 1,000,000 files").
 */
export const HEAP_GROWING_PERCENT = 10;

/**
 * Sets it for this process: the first thing an entry point does (bin/mch-sync.js, the Electron main).
 * V8 reads the flag each time it sets the next limit, so setting it once running is enough.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
