// A pair's selection kept in memory, for engine tests (the profile's record is tested on its own).
import { EMPTY_SELECTION, type PairSelection, type SelectionStore } from '../../app/model/selection.ts';

export interface MemorySelection extends SelectionStore {
  /** The selection as the engine last left it. */
  current: PairSelection;
  exclude(path: string, id: string, localCopy: 'remove' | 'keep'): void;
  include(id: string): void;
}

export function memorySelection(initial: Partial<PairSelection> = {}): MemorySelection {
  const store: MemorySelection = {
    current: { ...EMPTY_SELECTION, askOverBytes: null, ...initial },
    read: () => structuredClone(store.current),
    update: async (change) => {
      store.current = change(structuredClone(store.current));
    },
    exclude: (path, id, localCopy) => {
      store.current = {
        ...store.current,
        waiting: store.current.waiting.filter((folder) => folder.id !== id),
        excluded: [...store.current.excluded.filter((folder) => folder.id !== id), { path, id, localCopy }],
      };
    },
    include: (id) => {
      store.current = {
        ...store.current,
        waiting: store.current.waiting.filter((folder) => folder.id !== id),
        excluded: store.current.excluded.filter((folder) => folder.id !== id),
      };
    },
  };
  return store;
}
