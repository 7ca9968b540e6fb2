// The `mch-sync` command: global options, the subcommand, and exit codes (0 done, 1 failed, 2 usage error, 3 held).
import { parseArgs } from 'node:util';
import { MchError } from '../../common/errors.ts';
import { systemBrowser } from '../auth/system-browser.ts';
import { resolveProfileDir } from '../profile/profile-dir.ts';
import {
  commandContext,
  OutputClosed,
  stoppedByUser,
  UsageError,
  type CliDependencies,
} from './terminal/cli-context.ts';
import { safeText } from './terminal/output.ts';
import { COMMANDS, type Options, type Values } from './command-table.ts';
import { MAIN_USAGE } from './usage.ts';

/** Every command also takes the global options, so `mch-sync login --profile DIR` works too. */
const GLOBAL_OPTIONS: Options = {
  profile: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function parse(args: string[], options: Options, usage: string): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...GLOBAL_OPTIONS, ...options },
      strict: true,
      allowPositionals: true,
    });
    return { values: values as Values, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

/** Splits `[global options] command [command options]`. */
function splitCommand(argv: string[]): { globals: string[]; name: string | undefined; rest: string[] } {
  const globals: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (arg === '--profile' && index + 1 < argv.length) {
      globals.push(arg, argv[index + 1] ?? '');
      index += 1;
    } else if (arg.startsWith('-')) {
      globals.push(arg);
    } else {
      return { globals, name: arg, rest: argv.slice(index + 1) };
    }
  }
  return { globals, name: undefined, rest: [] };
}

export async function runCli(argv: string[], given: CliDependencies): Promise<number> {
  // Nothing on stderr is styled: a message naming a file cannot drive the terminal (issue 27).
  const deps: CliDependencies = { ...given, stderr: (text) => given.stderr(safeText(text)) };
  try {
    const { globals, name, rest } = splitCommand(argv);
    const global = parse(globals, {}, MAIN_USAGE).values;
    if (name === undefined) {
      if (global['help'] === true) {
        deps.stdout(`${MAIN_USAGE}\n`);
        return 0;
      }
      throw new UsageError('No command given.', MAIN_USAGE);
    }
    const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (entry === undefined) {
      throw new UsageError(`Unknown command "${name}": use ${Object.keys(COMMANDS).join(', ')}.`, MAIN_USAGE);
    }
    // Only the command given is loaded, with what it imports (a start loads what it uses).
    const command = { ...entry, ...(await entry.load()) };
    const { values, positionals } = parse(rest, command.options, command.usage);
    if (values['help'] === true || global['help'] === true) {
      deps.stdout(`${command.usage}\n`);
      return 0;
    }
    if (positionals.length > 0 && command.takesArguments !== true) {
      throw new UsageError(`Unexpected argument "${positionals[0]}".`, command.usage);
    }
    const profileFlag =
      (values['profile'] as string | undefined) ?? (global['profile'] as string | undefined);
    if (profileFlag === '') throw new UsageError('--profile needs a folder.', command.usage);
    const profileDir = resolveProfileDir({ flag: profileFlag, env: deps.env });
    return await command.run(commandContext(deps, profileDir), values, positionals);
  } catch (error) {
    return report(error, deps);
  }
}

function report(error: unknown, deps: CliDependencies): number {
  if (error instanceof UsageError) {
    deps.stderr(`mch-sync: ${error.message}\n\n${error.usage}\n`);
    return 2;
  }
  if (error instanceof MchError && error.code === 'ABORTED') {
    // Ended because its output was closed (`| head`): quietly, the reader is gone.
    if (stoppedByUser(deps.signal)) deps.stderr('mch-sync: stopped (Ctrl+C).\n');
    return 1;
  }
  if (error instanceof MchError) {
    deps.stderr(`mch-sync: ${error.message}\n`);
    if (error.code === 'BUG')
      deps.stderr(`${error.stack ?? ''}\nThis is a bug in mch-sync: please report it.\n`);
    return 1;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  deps.stderr(`mch-sync: unexpected failure, please report it with what you ran:\n${detail}\n`);
  return 1;
}

/** The real process's dependencies; Ctrl+C cancels a command that waits (browser sign-in). */
export async function main(argv: string[]): Promise<number> {
  const controller = new AbortController();
  // The first Ctrl+C lets the command stop cleanly; a second one, for a step that cannot be
  // cancelled (a keychain waiting to be unlocked), ends the process as Ctrl+C normally does.
  const onInterrupt = (): void => {
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  };
  // A service manager stops a live run with SIGTERM: the same clean stop.
  const onTerminate = (): void => controller.abort();
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onTerminate);
  // A reader that went away (`mch-sync shares | head`) ends the command quietly: no EPIPE stack trace,
  // no more output, and a command that runs until stopped stops as on SIGTERM.
  const outputClosed = (): void => controller.abort(new OutputClosed());
  const stdout = guardedOutput(process.stdout, outputClosed);
  const stderr = guardedOutput(process.stderr, outputClosed);
  try {
    return await runCli(argv, {
      stdout,
      stderr,
      stdin: process.stdin,
      env: process.env,
      openBrowser: systemBrowser(),
      terminal: process.stdout.isTTY ? process.stdout : undefined,
      signal: controller.signal,
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerminate);
  }
}

/**
 * Writes to `stream` until it fails (its reader closed the pipe: EPIPE; a terminal that went away),
 * then drops every later write and calls `onClosed` once. The error is handled here, so Node never
 * prints it as an unhandled 'error' event.
 */
function guardedOutput(stream: NodeJS.WriteStream, onClosed: () => void): (text: string) => void {
  let closed = false;
  stream.on('error', () => {
    if (closed) return;
    closed = true;
    onClosed();
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}
