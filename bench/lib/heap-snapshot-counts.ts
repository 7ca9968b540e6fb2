// Counts the objects of a V8 heap snapshot file by constructor name, to say what a process keeps per watched item.
import { readFileSync } from 'node:fs';

export interface HeapGroup {
  /** `Set`, `DirEntry`, `(closure) listener`, `(string)`, ... */
  name: string;
  count: number;
  selfBytes: number;
}

interface SnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Node types whose name is the constructor (objects) or the function (closures); others are grouped by type. */
const NAMED_TYPES = new Set(['object', 'closure', 'native']);

/** Groups every node of the snapshot at `path`, largest count first. */
export function countHeapSnapshot(path: string): HeapGroup[] {
  const file = JSON.parse(readFileSync(path, 'utf8')) as SnapshotFile;
  const fields = file.snapshot.meta.node_fields;
  const types = file.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, HeapGroup>();
  for (let node = 0; node < file.nodes.length; node += width) {
    const type = types[file.nodes[node + typeAt] as number] ?? 'unknown';
    const name =
      type === 'closure'
        ? `(closure) ${file.strings[file.nodes[node + nameAt] as number] ?? ''}`
        : NAMED_TYPES.has(type)
          ? (file.strings[file.nodes[node + nameAt] as number] ?? '')
          : `(${type})`;
    const group = groups.get(name) ?? { name, count: 0, selfBytes: 0 };
    group.count += 1;
    group.selfBytes += file.nodes[node + sizeAt] as number;
    groups.set(name, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}
