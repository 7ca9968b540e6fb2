// The error of an operation whose planned state changed under it: the round plans again instead of retrying it.
import type { RelativePath } from '../../model/items.ts';

/**
 * An operation could not be done now and must not be retried blindly: the state it was planned from
 * changed (a 412, a local edit, something new at the target). The pass plans again from a fresh look.
 */
export class ReplanNeeded extends Error {
  readonly code: string;
  readonly path: RelativePath;

  constructor(code: string, path: RelativePath, message: string) {
    super(message);
    this.name = 'ReplanNeeded';
    this.code = code;
    this.path = path;
  }
}
