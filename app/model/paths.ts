// The two halves of a relative path (its parent and its last name), for every room that handles paths.
import type { RelativePath } from './items.ts';

export function baseName(path: RelativePath): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function parentPath(path: RelativePath): RelativePath {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
