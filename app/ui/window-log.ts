// The window's own log, <profile>/logs/window.log beside each pair's live log: what the host is told (warnings, unexpected failures with their stack) kept where Settings says the logs are.
import { openRotatingLog, type RotatingLog } from '../log/rotating-log.ts';
import { liveLogDir } from '../live-service/pair-service.ts';

export type WindowLogLevel = 'info' | 'warn' | 'error';

/** The file's name in the logs folder (`window.log`). */
export const WINDOW_LOG_NAME = 'window';

export interface WindowLog {
  readonly path: string;
  /** Into the file, and to the host's own log (a terminal, Electron's stderr). */
  write(level: WindowLogLevel, message: string): void;
  close(): Promise<void>;
}

export function openWindowLog(
  profileDir: string,
  hostLog: (level: WindowLogLevel, message: string) => void,
): WindowLog {
  const file: RotatingLog = openRotatingLog({
    dir: liveLogDir(profileDir),
    name: WINDOW_LOG_NAME,
    onError: (error) => hostLog('warn', `the window's log cannot be written (${error.message})`),
  });
  return {
    path: file.path,
    write: (level, message) => {
      file.write({ level, message });
      hostLog(level, message);
    },
    close: () => file.close(),
  };
}

/** An unexpected failure for the log: its stack when it has one (the message is in its first line). */
export function describeFailure(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
