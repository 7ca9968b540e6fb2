// A small contract service and a built-renderer folder for tests of the headless UI host.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  INVOKE_NAMES,
  type AboutView,
  type EventName,
  type EventPayload,
  type InvokeName,
} from '../../common/contract.ts';
import { MchError } from '../../common/errors.ts';
import type { ContractHandlers, ContractService, EventListener } from '../../app/ui/dispatch.ts';

export const ABOUT: AboutView = {
  version: '9.8.7-test',
  profileDir: '/profile',
  logsDir: '/profile/logs',
  logFile: '/profile/logs/window.log',
};

/** What `account:get` throws: an MchError, which crosses as its code, title and message. */
export const SIGN_IN_ERROR = new MchError(
  'SIGN_IN_REQUIRED',
  'Sign-in needed',
  'Run `mch-sync login`, then try again.',
);

/** What `pairs:list` throws: not an MchError, so it crosses as INTERNAL and only the log has it. */
export const UNEXPECTED_TEXT = 'disk on fire 7f3a';

export interface TestService {
  service: ContractService;
  /** The requests each call was given, in order. */
  calls: Array<{ name: InvokeName; request: unknown }>;
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  /** How many listeners (open event streams) the host has subscribed. */
  listenerCount(): number;
}

export function makeTestService(): TestService {
  const listeners = new Set<EventListener>();
  const calls: TestService['calls'] = [];
  const special: Partial<Record<InvokeName, (request: unknown) => unknown>> = {
    'app:about': () => ABOUT,
    'account:get': () => {
      throw SIGN_IN_ERROR;
    },
    'pairs:list': () => {
      throw new Error(UNEXPECTED_TEXT);
    },
  };
  // Every other call answers with the request it was given.
  const handlers = Object.fromEntries(
    INVOKE_NAMES.map((name) => [
      name,
      async (request: unknown) => {
        calls.push({ name, request });
        const answer = special[name];
        return answer === undefined ? { echo: request } : answer(request);
      },
    ]),
  ) as unknown as ContractHandlers;
  return {
    service: {
      handlers,
      onEvent(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    calls,
    emit(name, payload) {
      for (const listener of listeners) listener(name, payload);
    },
    listenerCount: () => listeners.size,
  };
}

export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Test renderer</title>
<link rel="stylesheet" href="/assets/style.css">
<script type="module" src="/assets/app.js"></script>
</head>
<body>
<main><h1>Test renderer</h1></main>
</body>
</html>
`;

/** Records, as the page's first module runs, whether the bridge was already there. */
export const APP_JS = `document.documentElement.dataset.app = 'loaded';
document.documentElement.dataset.bridge = typeof window.mchBridge === 'object' ? 'present' : 'missing';
`;

export const STYLE_CSS = `h1 { color: rgb(1, 2, 3); }\n`;

export const OUTSIDE_TEXT = 'outside the renderer: must never be served';

export interface RendererFolder {
  /** The built renderer: index.html, assets/app.js, assets/style.css, assets/data.bin, a link in and a link out. */
  dir: string;
  /** A file next to the renderer folder, which no request may reach. */
  outsideFile: string;
  remove(): void;
}

export function makeRendererFolder(): RendererFolder {
  const base = mkdtempSync(join(tmpdir(), 'mch-ui-host-'));
  const dir = join(base, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(join(dir, 'assets', 'app.js'), APP_JS);
  writeFileSync(join(dir, 'assets', 'style.css'), STYLE_CSS);
  writeFileSync(join(dir, 'assets', 'data.bin'), Buffer.from([0, 1, 2, 3]));
  writeFileSync(join(dir, '.hidden'), 'a dotfile');
  const outsideFile = join(base, 'secret.txt');
  writeFileSync(outsideFile, OUTSIDE_TEXT);
  symlinkSync(outsideFile, join(dir, 'assets', 'link-out.txt'));
  symlinkSync(join(dir, 'assets', 'style.css'), join(dir, 'assets', 'link-in.css'));
  return { dir, outsideFile, remove: () => rmSync(base, { recursive: true, force: true }) };
}
