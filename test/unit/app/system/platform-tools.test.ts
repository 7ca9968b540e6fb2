// Which clipboard tool and notification command each platform gets, and how failures are told apart.
import { describe, expect, it } from 'vitest';
import { ClipboardError, clipboardTools, copyToClipboard } from '../../../../app/system/clipboard.ts';
import { notificationCommand, notify, NotificationError } from '../../../../app/system/notifications.ts';
import { ToolMissingError, type ToolRun } from '../../../../app/system/run-tool.ts';

describe('clipboardTools', () => {
  it('prefers wl-copy on Wayland and falls back to the X11 tools', () => {
    expect(
      clipboardTools('linux', { WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }).map((t) => t.command),
    ).toEqual(['wl-copy', 'xclip', 'xsel']);
    expect(clipboardTools('linux', { DISPLAY: ':0' }).map((t) => t.command)).toEqual(['xclip', 'xsel']);
    expect(clipboardTools('linux', {})).toEqual([]);
    expect(clipboardTools('darwin', {}).map((t) => t.command)).toEqual(['pbcopy']);
    expect(clipboardTools('win32', {}).map((t) => t.command)).toEqual(['clip']);
  });
});

describe('copyToClipboard', () => {
  it('tries the next tool when one is missing, and feeds the text on stdin', async () => {
    const seen: Array<[string, string | undefined]> = [];
    const used = await copyToClipboard('http://x/s/1', {
      platform: 'linux',
      env: { DISPLAY: ':0' },
      run: (command, _args, options): Promise<ToolRun> => {
        seen.push([command, options.input]);
        if (command === 'xclip') return Promise.reject(new ToolMissingError('xclip'));
        return Promise.resolve({ code: 0, stderr: '' });
      },
    });
    expect(used).toBe('xsel');
    expect(seen).toEqual([
      ['xclip', 'http://x/s/1'],
      ['xsel', 'http://x/s/1'],
    ]);
  });

  it('names what to install when no tool exists, and what failed otherwise', async () => {
    const missing = copyToClipboard('t', {
      platform: 'linux',
      env: { DISPLAY: ':0' },
      run: (command) => Promise.reject(new ToolMissingError(command)),
    });
    await expect(missing).rejects.toThrow(/install xclip or xsel/);
    const failing = copyToClipboard('t', {
      platform: 'linux',
      env: { DISPLAY: ':0' },
      run: () => Promise.resolve({ code: 1, stderr: "Can't open display" }),
    });
    await expect(failing).rejects.toThrow(/xclip failed: Can't open display/);
    await expect(failing).rejects.toBeInstanceOf(ClipboardError);
  });
});

describe('notifications', () => {
  it('passes a title and body with quotes as arguments, never as script', () => {
    const note = { title: 'Share link copied', body: 'Anyone can open "a\'b".txt' };
    const mac = notificationCommand(note, 'darwin', {});
    expect(mac.command).toBe('osascript');
    expect(mac.args.slice(-2)).toEqual([note.title, note.body]);
    const windows = notificationCommand(note, 'win32', {});
    expect(windows.args.join(' ')).not.toContain(note.body);
    expect(windows.env['MCH_NOTIFY_BODY']).toBe(note.body);
    const linux = notificationCommand({ title: 't', body: 'a <b> & c' }, 'linux', {});
    expect(linux.args.slice(-2)).toEqual(['t', 'a &lt;b&gt; &amp; c']);
  });

  it('says what to install when notify-send is missing', async () => {
    const shown = notify(
      { title: 't', body: 'b' },
      { platform: 'linux', env: {}, run: (command) => Promise.reject(new ToolMissingError(command)) },
    );
    await expect(shown).rejects.toThrow(/install libnotify-bin/);
    await expect(shown).rejects.toBeInstanceOf(NotificationError);
  });
});
