// Shows a desktop notification through the platform's own tool: notify-send, osascript, or a PowerShell toast.
import { MchError } from '../../common/errors.ts';
import { runTool, ToolMissingError, type ToolOptions, type ToolRun } from './run-tool.ts';

export class NotificationError extends MchError {
  constructor(message: string) {
    super('NOTIFICATIONS_UNAVAILABLE', 'Notifications unavailable', message);
  }
}

export interface Notification {
  title: string;
  body: string;
}

export interface NotifyOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  run?: (command: string, args: readonly string[], options: ToolOptions) => Promise<ToolRun>;
}

// The title and body go to PowerShell as environment variables: nothing of them is ever parsed as script.
const WINDOWS_TOAST = [
  '[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null',
  '$template = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)',
  '$texts = $template.GetElementsByTagName("text")',
  '$texts.Item(0).AppendChild($template.CreateTextNode($env:MCH_NOTIFY_TITLE)) | Out-Null',
  '$texts.Item(1).AppendChild($template.CreateTextNode($env:MCH_NOTIFY_BODY)) | Out-Null',
  '$toast = [Windows.UI.Notifications.ToastNotification]::new($template)',
  // PowerShell's own application id: a command-line tool has no registered one of its own.
  '[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier("{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe").Show($toast)',
].join('; ');

/** The command that shows `notification` on this platform. */
export function notificationCommand(
  notification: Notification,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  if (platform === 'darwin') {
    // Passed as arguments to the script, so quotes in a file name cannot end an AppleScript string.
    const script = [
      'on run argv',
      'display notification (item 2 of argv) with title (item 1 of argv)',
      'end run',
    ];
    return {
      command: 'osascript',
      args: [...script.flatMap((line) => ['-e', line]), notification.title, notification.body],
      env,
    };
  }
  if (platform === 'win32') {
    return {
      command: 'powershell.exe',
      args: ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_TOAST],
      env: { ...env, MCH_NOTIFY_TITLE: notification.title, MCH_NOTIFY_BODY: notification.body },
    };
  }
  // notify-send reads a little markup in the body; a file name holding "<" must not become markup.
  return {
    command: 'notify-send',
    args: [
      '--app-name=mch-sync',
      '--icon=emblem-shared',
      '--',
      notification.title,
      escapeMarkup(notification.body),
    ],
    env,
  };
}

/** Shows the notification, or throws a NotificationError that says why not (the caller decides how much that matters). */
export async function notify(notification: Notification, options: NotifyOptions = {}): Promise<void> {
  const platform = options.platform ?? process.platform;
  const { command, args, env } = notificationCommand(notification, platform, options.env ?? process.env);
  let result: ToolRun;
  try {
    result = await (options.run ?? runTool)(command, args, { env });
  } catch (error) {
    if (error instanceof ToolMissingError) {
      throw new NotificationError(
        platform === 'linux' ? `${error.message}: install libnotify-bin (notify-send).` : `${error.message}.`,
      );
    }
    throw error;
  }
  if (result.code !== 0) {
    throw new NotificationError(`${command} failed${result.stderr === '' ? '' : `: ${result.stderr}`}`);
  }
}

function escapeMarkup(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
