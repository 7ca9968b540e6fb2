// Puts text on the system clipboard through the platform's own tool: wl-copy or xclip/xsel, pbcopy, clip.
import { MchError } from '../../common/errors.ts';
import { runTool, ToolMissingError, type ToolOptions, type ToolRun } from './run-tool.ts';

export class ClipboardError extends MchError {
  constructor(message: string) {
    super('CLIPBOARD_UNAVAILABLE', 'Clipboard unavailable', message);
  }
}

interface ClipboardTool {
  command: string;
  args: string[];
}

export interface ClipboardOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** The process runner (tests replace it to see what would run). */
  run?: (command: string, args: readonly string[], options: ToolOptions) => Promise<ToolRun>;
}

/** The tools to try, in order, for this platform and session. */
export function clipboardTools(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): ClipboardTool[] {
  if (platform === 'darwin') return [{ command: 'pbcopy', args: [] }];
  // clip.exe reads the console's code page; the links and paths copied here are ASCII-safe URLs.
  if (platform === 'win32') return [{ command: 'clip', args: [] }];
  const tools: ClipboardTool[] = [];
  if (nonEmpty(env['WAYLAND_DISPLAY'])) tools.push({ command: 'wl-copy', args: [] });
  // XWayland sessions set both: wl-copy first, the X11 tools as the fallback.
  if (nonEmpty(env['DISPLAY'])) {
    tools.push({ command: 'xclip', args: ['-selection', 'clipboard', '-in'] });
    tools.push({ command: 'xsel', args: ['--clipboard', '--input'] });
  }
  return tools;
}

/** Copies `text`; the tool that did it, or a ClipboardError that says what to install. */
export async function copyToClipboard(text: string, options: ClipboardOptions = {}): Promise<string> {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const run = options.run ?? runTool;
  const tools = clipboardTools(platform, env);
  if (tools.length === 0) {
    throw new ClipboardError(
      'There is no graphical session here (neither DISPLAY nor WAYLAND_DISPLAY is set), so there is no clipboard to copy to.',
    );
  }
  const failures: string[] = [];
  for (const tool of tools) {
    try {
      const result = await run(tool.command, tool.args, { input: text, env });
      if (result.code === 0) return tool.command;
      failures.push(`${tool.command} failed${result.stderr === '' ? '' : `: ${result.stderr}`}`);
    } catch (error) {
      if (!(error instanceof ToolMissingError)) throw error;
      failures.push(error.message);
    }
  }
  const missingAll = failures.every((failure) => failure.endsWith('is not installed'));
  throw new ClipboardError(
    missingAll
      ? `No clipboard tool was found (${failures.join('; ')}): install ${installAdvice(platform, env)}.`
      : `Could not copy to the clipboard (${failures.join('; ')}).`,
  );
}

function installAdvice(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'darwin' || platform === 'win32') return 'the system clipboard tool';
  return nonEmpty(env['WAYLAND_DISPLAY']) ? 'wl-clipboard (wl-copy) or xclip' : 'xclip or xsel';
}

function nonEmpty(value: string | undefined): boolean {
  return value !== undefined && value !== '';
}
