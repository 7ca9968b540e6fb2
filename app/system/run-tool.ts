// Runs one of the platform's small tools (clipboard, notifications) with text on stdin, without waiting for what it leaves running.
import { spawn } from 'node:child_process';

export interface ToolRun {
  /** The exit code; null when the tool was killed. */
  code: number | null;
  stderr: string;
}

export interface ToolOptions {
  input?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** The tool was not found (ENOENT): try the next one. */
export class ToolMissingError extends Error {
  constructor(command: string) {
    super(`${command} is not installed`);
    this.name = 'ToolMissingError';
  }
}

/**
 * Runs `command args`, feeding `input`. Resolves when the process exits, not when its output closes:
 * xclip and wl-copy fork a child that keeps serving the clipboard with the same stderr.
 */
export function runTool(
  command: string,
  args: readonly string[],
  options: ToolOptions = {},
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      stdio: ['pipe', 'ignore', 'pipe'],
      windowsHide: true,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 10_000);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new ToolMissingError(command) : error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      // The forked clipboard owner may hold the pipe open for as long as it serves: stop reading it.
      child.stderr.destroy();
      resolve({ code, stderr: stderr.trim() });
    });
    // A tool that exits without reading its input closes the pipe early; that is its exit code's business.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
