// Splits another process's resident memory by where it lives (/proc/<pid>/smaps): glibc's main heap, glibc's thread arenas, other anonymous mappings, files.
import { readFileSync } from 'node:fs';

/** Resident MB of a process by kind of mapping; `arenas` counts the thread arenas found. */
export interface MemoryMap {
  rssMb: number;
  /** VmHWM: the highest RSS the process ever had. */
  peakRssMb: number;
  /** Anonymous memory in all (smaps `Anonymous`), what the process itself wrote. */
  anonymousMb: number;
  /** glibc's main arena, grown with brk: `[heap]`. Where the main thread's malloc lives. */
  brkHeapMb: number;
  /** glibc's thread arenas: 64 MiB-aligned anonymous reservations of 64 MiB (a heap per arena). */
  threadArenasMb: number;
  arenas: number;
  /** Other anonymous mappings: V8's heap pages, big mallocs (mmap'ed), thread stacks. */
  otherAnonymousMb: number;
  /** Resident file-backed pages (node's binary, libraries). */
  fileMb: number;
}

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  path: string;
  rssKb: number;
  anonymousKb: number;
}

/** glibc's HEAP_MAX_SIZE on 64-bit: each thread arena heap is reserved at this size and alignment. */
const ARENA_HEAP_BYTES = 64n * 1024n * 1024n;

function parseSmaps(text: string): Mapping[] {
  const mappings: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      current = {
        start: BigInt(`0x${header[1]}`),
        end: BigInt(`0x${header[2]}`),
        perms: header[3] as string,
        path: header[4] ?? '',
        rssKb: 0,
        anonymousKb: 0,
      };
      mappings.push(current);
      continue;
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB$/.exec(line);
    if (field && current) {
      if (field[1] === 'Rss') current.rssKb = Number(field[2]);
      else current.anonymousKb = Number(field[2]);
    }
  }
  return mappings;
}

/**
 * A thread arena heap is one 64 MiB reservation at a 64 MiB boundary: a read-write part in use and the
 * rest `---p`, which the kernel shows as two adjacent mappings (or one when the whole heap is in use).
 */
function arenaStarts(mappings: Mapping[]): Set<bigint> {
  const starts = new Set<bigint>();
  mappings.forEach((mapping, index) => {
    if (mapping.path !== '' || mapping.perms !== 'rw-p' || mapping.start % ARENA_HEAP_BYTES !== 0n) return;
    const next = mappings[index + 1];
    const size = mapping.end - mapping.start;
    const reserved =
      next !== undefined && next.start === mapping.end && next.path === '' && next.perms === '---p'
        ? size + (next.end - next.start)
        : size;
    if (reserved === ARENA_HEAP_BYTES) starts.add(mapping.start);
  });
  return starts;
}

function statusMb(status: string, name: string): number {
  return Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) / 1024;
}

/** Reads /proc/<pid>/smaps and /status once. */
export function readMemoryMap(pid: number): MemoryMap {
  const mappings = parseSmaps(readFileSync(`/proc/${pid}/smaps`, 'utf8'));
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const arenas = arenaStarts(mappings);
  let anonymousKb = 0;
  let brkKb = 0;
  let arenaKb = 0;
  let fileKb = 0;
  for (const mapping of mappings) {
    anonymousKb += mapping.anonymousKb;
    if (mapping.path === '[heap]') brkKb += mapping.rssKb;
    else if (arenas.has(mapping.start)) arenaKb += mapping.rssKb;
    else if (mapping.path.startsWith('/')) fileKb += mapping.rssKb - mapping.anonymousKb;
  }
  return {
    rssMb: statusMb(status, 'VmRSS'),
    peakRssMb: statusMb(status, 'VmHWM'),
    anonymousMb: anonymousKb / 1024,
    brkHeapMb: brkKb / 1024,
    threadArenasMb: arenaKb / 1024,
    arenas: arenas.size,
    otherAnonymousMb: (anonymousKb - brkKb - arenaKb) / 1024,
    fileMb: fileKb / 1024,
  };
}
