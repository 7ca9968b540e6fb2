// A scripted window.mchBridge for the renderer's view tests: answers every contract call from sample data, records the calls, and lets the test fire events.
import type { RendererSample } from './renderer-sample.ts';

export interface ScriptedBridgeOptions {
  sample: RendererSample;
  /** `new`: signed out and no pairs (the first run); `ready`: signed in with the sample's pairs. */
  scenario: 'new' | 'ready';
  /** Define the optional `pathForFile` the desktop host will add. */
  resolvesDroppedFiles?: boolean;
  /** Calls that reject with this UiError instead of answering. */
  failures?: Record<
    string,
    { code: string; title: string; message: string; details?: string; logFile?: string }
  >;
  /** Calls whose answer waits for `window.__mch.release(name)`, to see the window while they run. */
  pending?: string[];
}

/**
 * The init script's source. It runs before the page's own scripts (as Electron's preload would);
 * `window.__mch.calls` holds `{name, request}` of every invoke, `window.__mch.emit(name, payload)`
 * fires an event, `window.__mch.release(name)` answers the waiting calls of a `pending` name,
 * `window.__mch.violations` the CSP violations seen.
 */
export function scriptedBridgeSource(options: ScriptedBridgeOptions): string {
  return `(${bridge.toString()})(${JSON.stringify(options)});`;
}

// Runs in the page: plain JavaScript over plain data, no imports (it is serialised with toString).
function bridge(options: ScriptedBridgeOptions): void {
  const data = structuredClone(options.sample);
  const page = globalThis as unknown as Record<string, unknown> & {
    document: { addEventListener(name: string, listener: (event: Record<string, string>) => void): void };
  };
  let account = options.scenario === 'new' ? data.signedOut : data.account;
  let pairs = options.scenario === 'new' ? [] : data.pairs;
  let settings = data.settings;
  let network = data.network;
  let shares = data.shares;
  const calls: Array<{ name: string; request: unknown }> = [];
  const violations: string[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  page.document.addEventListener('securitypolicyviolation', (event) => {
    violations.push(`${event['violatedDirective']} ${event['blockedURI']}`);
  });
  const withPair = (pairId: string, change: Record<string, unknown>) => {
    pairs = pairs.map((pair) => (pair.id === pairId ? { ...pair, ...change } : pair));
    return pairs;
  };
  type Request = Record<string, unknown>;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  // The contract's rejections are UiError-shaped; an Error with the two extra fields is one.
  const uiError = (code: string, title: string, message: string) =>
    Object.assign(new Error(message), { code, title });
  const answers: Record<string, (request: Request) => unknown> = {
    'app:about': () => data.about,
    'account:get': () => account,
    'account:signInPassword': (request) => {
      account = { ...data.account, configUrl: text(request['configUrl']), device: null };
      return account;
    },
    'account:signInBrowser': () => (account = { ...data.account, device: null }),
    'account:signOut': () => (account = { ...data.signedOut, configUrl: data.account.configUrl }),
    'devices:list': () => data.devices,
    'devices:choose': (request) => {
      const device = data.devices.find((candidate) => candidate.id === request['deviceId']);
      account = { ...account, device: device ? { id: device.id, name: device.name, url: null } : null };
      return account;
    },
    'remote:listFolders': (request) => data.folders[text(request['folderId']) || 'root'],
    'remote:createFolder': (request) => {
      const parent = data.folders[text(request['parentId'])];
      if (!parent) throw uiError('NOT_FOUND', 'Folder not found', 'It was removed.');
      const id = `new-${Object.keys(data.folders).length}`;
      const path = `${parent.folder.path === '/' ? '' : parent.folder.path}/${text(request['name'])}`;
      const created = { id, name: text(request['name']), path };
      parent.children.push(created);
      data.folders[id] = { folder: created, parentId: parent.folder.id, children: [] };
      return created;
    },
    'pairs:list': () => pairs,
    // The core's answer in short: `/<name>` offered, and a folder inside a pair's refused in its words.
    'pairs:check': (request) => {
      const localRoot = text(request['localRoot']).replace(/\/+$/, '');
      const name = localRoot.split('/').at(-1) ?? '';
      const remoteFolder = request['remoteFolder'] === null ? `/${name}` : text(request['remoteFolder']);
      const around = pairs.find((pair) => localRoot.startsWith(`${pair.localRoot}/`));
      const problem =
        around === undefined
          ? null
          : {
              code: 'PAIR_OVERLAP',
              title: 'Folders overlap',
              message:
                `${localRoot} is inside ${around.localRoot}, which is synced with ${around.remoteFolder}. ` +
                'Folder pairs must not overlap: choose another folder.',
            };
      return { remoteFolder, problem };
    },
    'pairs:add': (request) => {
      const pair = {
        ...data.pairs[0]!,
        id: `pair-${pairs.length + 1}`,
        localRoot: text(request['localRoot']),
        remoteFolder: text(request['remoteFolder']),
        state: 'scanning' as const,
        progress: null,
        issueCount: 0,
        hold: null,
      };
      pairs = [...pairs, pair];
      return pair;
    },
    'pairs:remove': (request) => {
      pairs = pairs.filter((pair) => pair.id !== request['pairId']);
      return {};
    },
    'sync:pause': (request) =>
      request['pairId'] === null
        ? pairs
        : withPair(text(request['pairId']), { paused: true, state: 'paused' }),
    'sync:resume': (request) =>
      request['pairId'] === null
        ? pairs
        : withPair(text(request['pairId']), { paused: false, state: 'scanning' }),
    'sync:now': () => pairs,
    // As the core answers: the hold stays until its pass ends, the answer under way meanwhile.
    'sync:confirmDeletes': (request) =>
      withPair(text(request['pairId']), {
        state: 'syncing',
        answering: { choice: 'confirm-deletes', words: 'Delete them on the device too: under way…' },
      }).find((pair) => pair.id === request['pairId']),
    'sync:restore': (request) =>
      withPair(text(request['pairId']), {
        state: 'syncing',
        answering: { choice: 'restore', words: 'Restore them here: under way…' },
        progress: {
          itemsDone: 57,
          itemsTotal: 214,
          bytesDone: 18_874_368,
          bytesTotal: 73_400_320,
          bytesPerSecond: 4_194_304,
          secondsLeft: 13,
          transfers: [
            { path: 'Taxes/2023/return.pdf', direction: 'down', bytesDone: 262_144, bytesTotal: 1_048_576 },
          ],
        },
      }).find((pair) => pair.id === request['pairId']),
    // The photos pair's tree, for every pair and for a pair not made yet alike.
    'selection:list': (request) => data.selection[text(request['path'])] ?? [],
    'selection:preview': (request) => data.selection[text(request['path'])] ?? [],
    'selection:set': (request) => pairs.find((pair) => pair.id === request['pairId']),
    'selection:askOver': (request) => pairs.find((pair) => pair.id === request['pairId']),
    'activity:list': () => data.activity,
    // Versions (issue 31): the sample's, a restore answering the list it would leave.
    'versions:list': (request) => {
      const known = data.versions.files[text(request['localPath'])];
      if (known) return known;
      const localPath = text(request['localPath']);
      return { pairId: 'photos', path: localPath.split('/').at(-1), localPath, current: null, versions: [] };
    },
    'versions:restore': (request) => {
      const file = Object.values(data.versions.files).find((candidate) => candidate.path === request['path']);
      const version = file?.versions.find((candidate) => candidate.id === request['versionId']);
      if (!file || !version) throw uiError('VERSION_NOT_FOUND', 'No such version', 'It is no longer kept.');
      return {
        file,
        words: `Version ${version.number} of ${file.path.split('/').at(-1) ?? ''} is back; the file it replaced is kept as a version. It syncs to the device now.`,
      };
    },
    'deleted:list': (request) => {
      const query = text(request['query']).toLowerCase();
      const files = data.versions.deleted.filter(
        (file) =>
          (request['pairId'] === null || file.pairId === request['pairId']) &&
          (query === '' || (file.path.split('/').at(-1) ?? '').toLowerCase().includes(query)),
      );
      return { files, total: files.length };
    },
    'deleted:restore': (request) => {
      const paths = request['paths'] as string[];
      data.versions.deleted = data.versions.deleted.filter((file) => !paths.includes(file.path));
      return {
        restored: paths,
        skipped: [],
        words: `${paths.length} ${paths.length === 1 ? 'file' : 'files'} restored. ${paths.length === 1 ? 'It syncs' : 'They sync'} to the device now.`,
      };
    },
    'conflicts:list': () => data.versions.conflicts,
    'conflicts:resolve': (request) => {
      const paths = request['copyPaths'] as string[];
      const first = data.versions.conflicts.find((conflict) => conflict.copyPath === paths[0]);
      data.versions.conflicts = data.versions.conflicts.filter(
        (conflict) => !paths.includes(conflict.copyPath),
      );
      return {
        settled: paths,
        failed: [],
        words:
          paths.length === 1
            ? `The conflict of ${first?.originalPath ?? ''} is settled: both files stay, each under its own name.`
            : `${paths.length} conflicts are settled: both files stay, each under its own name.`,
      };
    },
    'versions:usage': () => data.versions.usage,
    'versions:settings': (request) =>
      (data.versions.usage = {
        ...data.versions.usage,
        keepDays: request['keepDays'] as number,
        capBytes: request['capBytes'] as number | null,
        conflicts: request['conflicts'] as typeof data.versions.usage.conflicts,
      }),
    'versions:clear': () => (data.versions.usage = { ...data.versions.usage, count: 0, bytes: 0 }),
    'issues:list': () => data.issues,
    'local:browse': (request) => data.local[text(request['path'])] ?? [],
    'shares:list': () => shares,
    'shares:create': (request) => {
      const paths = request['paths'] as string[];
      const share = {
        shareId: `sh-new-${shares.length}`,
        url: `http://127.0.0.1:8080/s/new-${shares.length}`,
        createdAtMs: Date.now(),
        items: paths.map((path, index) => ({
          id: `n${index}`,
          name: path.split('/').at(-1) ?? path,
          localPath: path,
          devicePath: null,
        })),
      };
      shares = [share, ...shares];
      return { ...share, reused: false };
    },
    'shares:revoke': (request) => {
      shares = shares.filter((share) => share.shareId !== request['shareId']);
      return {};
    },
    'search:text': () => ({ matches: data.matches, pageToken: '' }),
    'search:photos': () => ({ photos: data.photos, more: false }),
    'settings:get': () => settings,
    'settings:update': (request) => (settings = { ...settings, ...request }),
    'network:get': () => network,
    // The parser's words for a speed it cannot read (common/rate-text.ts), for the units the tests type.
    'network:setLimits': (request) => {
      const rate = (field: string, value: string): number | null => {
        if (value.trim() === '' || value.trim().toLowerCase() === 'off') return null;
        const match = /^(\d+(?:\.\d+)?)\s*(KB|MB|KiB|MiB)(?:\/s)?$/i.exec(value.trim());
        const units: Record<string, number> = { kb: 1000, mb: 1_000_000, kib: 1024, mib: 1_048_576 };
        if (!match) {
          throw uiError(
            'RATE_INVALID',
            'Not a speed',
            `${field}: "${value}" is not a speed: write it as 2MB/s, 500KB/s, 1.5MiB/s or off.`,
          );
        }
        return Math.round(Number(match[1]) * (units[text(match[2]).toLowerCase()] ?? 1));
      };
      const limits = {
        upBytesPerSec: rate('Upload limit', text(request['up'])),
        downBytesPerSec: rate('Download limit', text(request['down'])),
      };
      network = { ...network, limits };
      return network;
    },
    'network:setProxy': (request) => {
      const url = request['url'];
      const user = request['user'];
      const password = request['password'];
      const none = { source: 'none', effective: null, noProxy: null } as const;
      network = {
        ...network,
        proxy:
          typeof url !== 'string'
            ? { url: null, user: null, hasPassword: false, ...none }
            : {
                url,
                user: typeof user === 'string' ? user : null,
                hasPassword:
                  typeof user === 'string' &&
                  (typeof password === 'string' || (password === undefined && network.proxy.hasPassword)),
                source: 'manual',
                effective: url,
                noProxy: network.proxy.noProxy,
              },
      };
      return network;
    },
    'shell:openPath': () => ({}),
    'shell:showItem': () => ({}),
    'shell:openUrl': () => ({}),
  };
  const waiting = new Map<string, Array<() => void>>();
  const scripted: Record<string, unknown> = {
    async invoke(name: string, request: Request): Promise<unknown> {
      calls.push({ name, request: structuredClone(request) });
      if (options.pending?.includes(name)) {
        await new Promise<void>((resolve) => waiting.set(name, [...(waiting.get(name) ?? []), resolve]));
      }
      const failure = options.failures?.[name];
      if (failure) throw Object.assign(new Error(failure.message), failure);
      const answer = answers[name];
      if (!answer) throw uiError('NOT_SCRIPTED', 'Not scripted', name);
      return structuredClone(answer(request));
    },
    on(name: string, listener: (payload: unknown) => void): () => void {
      const set = listeners.get(name) ?? new Set();
      set.add(listener);
      listeners.set(name, set);
      return () => set.delete(listener);
    },
  };
  if (options.resolvesDroppedFiles) {
    scripted['pathForFile'] = (file: { name: string }) => `/home/ann/Documents/${file.name}`;
  }
  page['mchBridge'] = scripted;
  page['__mch'] = {
    calls,
    violations,
    emit(name: string, payload: unknown) {
      for (const listener of listeners.get(name) ?? []) listener(structuredClone(payload));
    },
    release(name: string) {
      for (const resolve of waiting.get(name) ?? []) resolve();
      waiting.delete(name);
    },
  };
}
