// What a command needs from the world (output, input, environment, browser), passed in so tests can replace it.
import type { Readable } from 'node:stream';
import type { KeytarApi } from '../../auth/secrets/keychain-store.ts';
import type { AuthEnvironment } from '../../auth/session.ts';
import type { BrowserOpener } from '../../auth/system-browser.ts';
import { safeText } from './output.ts';

export interface CliDependencies {
  /** Writes text as is (callers add the newline). */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  openBrowser: BrowserOpener;
  /**
   * Where a person pastes the address a browser on another computer ended up on; by default the
   * terminal, when stdin is one.
   */
  pastedAddresses?: Readable | undefined;
  keychain?: KeytarApi;
  /** Standard output when it is a terminal (for a live display); undefined when it is a pipe or file. */
  terminal?: NodeJS.WriteStream | undefined;
  /** Ends a waiting command (Ctrl+C). */
  signal?: AbortSignal;
  /** How long browser sign-in waits. */
  signInTimeoutMs?: number;
}

/**
 * The reason a command's signal aborts when its standard output was closed (`mch-sync ... | head`): the
 * command ends quietly, never as if stopped with Ctrl+C.
 */
export class OutputClosed extends Error {
  constructor() {
    super('standard output was closed');
    this.name = 'OutputClosed';
  }
}

/** Whether the command was stopped by the user (Ctrl+C, SIGTERM), not by its output closing. */
export function stoppedByUser(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && !(signal.reason instanceof OutputClosed);
}

/** Usage errors exit with 2; the message says what was wrong and the usage text follows. */
export class UsageError extends Error {
  readonly usage: string;

  constructor(message: string, usage: string) {
    super(message);
    this.name = 'UsageError';
    this.usage = usage;
  }
}

export interface CommandContext {
  deps: CliDependencies;
  profileDir: string;
  /** The environment of the auth layer: warnings go to stderr. */
  auth: AuthEnvironment;
  /** A line on stdout, its control characters (but line breaks) escaped: see `safeText`. */
  print: (line?: string) => void;
  /** A line made safe by its caller, with styles of its own (search's marked matches): printed as is. */
  printStyled: (line: string) => void;
  warn: (message: string) => void;
}

export function commandContext(deps: CliDependencies, profileDir: string): CommandContext {
  const warn = (message: string): void => deps.stderr(`mch-sync: warning: ${safeText(message)}\n`);
  return {
    deps,
    profileDir,
    auth: {
      profileDir,
      env: deps.env,
      warn,
      ...(deps.keychain === undefined ? {} : { keychain: deps.keychain }),
    },
    print: (line = '') => deps.stdout(`${safeText(line)}\n`),
    printStyled: (line) => deps.stdout(`${line}\n`),
    warn,
  };
}
