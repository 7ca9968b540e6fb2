// The base error type shared by every part of the project: a stable code, a title for people, a next step.

/** Every error the project raises on purpose carries a stable `code` that callers may switch on. */
export class MchError extends Error {
  readonly code: string;
  /** A few words for the UI, for example "Device unreachable". */
  readonly title: string;

  constructor(code: string, title: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.title = title;
  }
}

/** A broken invariant: a bug in this project, never a user or network problem. */
export class BugError extends MchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BUG', 'Internal error', message, options);
  }
}

/** Marks the end of an exhaustive switch; reaching it at run time is a bug. */
export function assertNever(value: never, what = 'value'): never {
  throw new BugError(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
