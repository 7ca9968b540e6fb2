// The window core's answers to the file manager's "Show in mch-sync" and "Why is this not synced?": the route it shows, the item below a folder that makes it so, and STATE_NO_WINDOW in words when there is no window to show.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileStateAnswer } from '../../../../../common/file-state.ts';
import type { WindowRoute } from '../../../../../common/window-route.ts';
import type { StateError } from '../../../../../app/file-state/state-errors.ts';
import {
  windowStateActions,
  type StateActionCore,
} from '../../../../../app/ui/states/window-state-actions.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function coreWith(showWindow: ((route: WindowRoute) => Promise<void>) | undefined): StateActionCore {
  const profileDir = mkdtempSync(join(tmpdir(), 'mch-state-actions-'));
  dirs.push(profileDir);
  return {
    options: { profileDir, ...(showWindow === undefined ? {} : { showWindow }) },
    connection: () => {
      throw new Error('show and why need no pair');
    },
    handlers: {},
  } as unknown as StateActionCore;
}

const folderState: FileStateAnswer = {
  path: '/home/ann/Cloud/docs',
  state: 'not-synced',
  kind: 'folder',
  shared: false,
  folder: '/home/ann/Cloud',
  from: '/home/ann/Cloud/docs/caf\u00e9.txt',
};

describe('the window core’s show and why', () => {
  it('opens Issues at the item below a folder that makes it not synced, and Status at an item', async () => {
    const shown: WindowRoute[] = [];
    const act = windowStateActions(
      coreWith((route) => {
        shown.push(route);
        return Promise.resolve();
      }),
      (path) => (path === folderState.path ? folderState : undefined),
    );
    expect(await act('why', ['/home/ann/Cloud/docs'])).toMatch(/why .*caf\u00e9\.txt is not synced/);
    expect(await act('why', ['/home/ann/Cloud/top.txt'])).toMatch(/top\.txt/);
    expect(await act('show', ['/home/ann/Cloud/top.txt'])).toMatch(/shows the folder of/);
    expect(shown).toEqual([
      { view: 'issues', item: '/home/ann/Cloud/docs/caf\u00e9.txt' },
      { view: 'issues', item: '/home/ann/Cloud/top.txt' },
      { view: 'status', item: '/home/ann/Cloud/top.txt' },
    ]);
  });

  it('says STATE_NO_WINDOW, in words, without a host window or when it cannot be shown', async () => {
    const none = windowStateActions(coreWith(undefined), () => undefined);
    await expect(none('why', ['/home/ann/Cloud/a.txt'])).rejects.toMatchObject({
      code: 'STATE_NO_WINDOW',
      message: expect.stringMatching(/no window to show/) as string,
    } satisfies Partial<StateError>);
    const failing = windowStateActions(
      coreWith(() => Promise.reject(new Error('xdg-open failed (exit code 3)'))),
      () => undefined,
    );
    await expect(failing('show', ['/home/ann/Cloud/a.txt'])).rejects.toMatchObject({
      code: 'STATE_NO_WINDOW',
      message: 'The window could not be shown (xdg-open failed (exit code 3)).',
    });
  });
});
