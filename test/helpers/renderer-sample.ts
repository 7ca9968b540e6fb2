// Fixed sample data for the renderer's view tests: two pairs (one syncing, one holding deletes), activity, issues with a conflict, shares, search matches and photos.
import type {
  AboutView,
  AccountView,
  ActivityView,
  DeviceView,
  IssueView,
  LocalEntryView,
  NetworkView,
  PairView,
  PhotoView,
  RemoteFolderListing,
  SearchMatchView,
  SelectionFolderView,
  SettingsView,
  ShareView,
} from '../../common/contract.ts';
import { versionsSample, type VersionsSample } from './renderer-sample-versions.ts';

const HOME = '/home/ann';
const MINUTE = 60_000;

export interface RendererSample {
  account: AccountView;
  signedOut: AccountView;
  devices: DeviceView[];
  folders: Record<string, RemoteFolderListing>;
  pairs: PairView[];
  activity: ActivityView[];
  issues: IssueView[];
  local: Record<string, LocalEntryView[]>;
  shares: ShareView[];
  matches: SearchMatchView[];
  photos: PhotoView[];
  settings: SettingsView;
  /** Settings › Network: an upload limit, and the profile's own proxy with a password kept. */
  network: NetworkView;
  about: AboutView;
  /** The device folders of the `photos` pair by path (`''`: its folder), as selection:list answers. */
  selection: Record<string, SelectionFolderView[]>;
  /** Versions, Recently deleted, the conflicts with both sides, a pair's versions policy. */
  versions: VersionsSample;
}

/** The emoji is two UTF-16 units: the match after it starts at index 3, not 2. */
export const EMOJI_FRAGMENT = '🎉 report of the party';

export function rendererSample(nowMs: number): RendererSample {
  const folder = (id: string, name: string, path: string) => ({ id, name, path });
  const root = folder('root', '', '/');
  const photosFolder = folder('f-photos', 'Photos', '/Photos');
  const documentsFolder = folder('f-docs', 'Documents', '/Documents');
  const account: AccountView = {
    signedIn: true,
    configUrl: 'http://127.0.0.1:8080/config',
    user: { id: 'u1', name: 'Ann Example', email: 'ann@example.org' },
    device: {
      id: 'd1',
      name: 'Living-room cloud',
      url: 'http://127.0.0.1:8080',
      connection: { via: 'home', reachable: true },
    },
    secretStore: 'keychain',
  };
  return {
    account,
    signedOut: { signedIn: false, configUrl: null, user: null, device: null, secretStore: null },
    devices: [
      { id: 'd1', name: 'Living-room cloud', modelId: 'mch-2', chosen: false },
      { id: 'd2', name: 'Office backup', modelId: 'mch-4', chosen: false },
    ],
    folders: {
      root: { folder: root, parentId: null, children: [documentsFolder, photosFolder] },
      'f-photos': {
        folder: photosFolder,
        parentId: 'root',
        children: [folder('f-2024', '2024', '/Photos/2024')],
      },
      'f-docs': { folder: documentsFolder, parentId: 'root', children: [] },
      'f-2024': { folder: folder('f-2024', '2024', '/Photos/2024'), parentId: 'f-photos', children: [] },
    },
    pairs: [
      {
        id: 'photos',
        localRoot: `${HOME}/Pictures/Family photos`,
        remoteFolder: '/Photos',
        state: 'syncing',
        // Three not synced; the symbolic link left out and the warning are listed, not counted.
        words: 'Syncing · 1 new folder waiting · 3 not synced',
        detail: null,
        paused: false,
        progress: {
          itemsDone: 128,
          itemsTotal: 412,
          bytesDone: 734_003_200,
          bytesTotal: 2_147_483_648,
          bytesPerSecond: 5_452_595,
          secondsLeft: 259,
          transfers: [
            {
              path: '2024/Summer holiday in the mountains with the whole family/IMG_20240714_183502.jpg',
              direction: 'up',
              bytesDone: 3_145_728,
              bytesTotal: 5_242_880,
            },
            {
              path: '2024/clip-beach.mp4',
              direction: 'down',
              bytesDone: 52_428_800,
              bytesTotal: 188_743_680,
            },
            // A large file read before it is sent: listed from the start, its bar moving already.
            {
              path: '2024/holiday-film.mov',
              direction: 'up',
              bytesDone: 0,
              bytesTotal: 1_503_238_553,
              starting: true,
            },
          ],
        },
        lastSyncAtMs: nowMs - 42 * MINUTE,
        itemsSynced: 12_408,
        issueCount: 3,
        conflictCount: 0,
        leftOut: { ignored: 14, systemFiles: 3 },
        hold: null,
        answering: null,
        // A new device folder over the threshold, waiting for an answer (the card's notice, the tray).
        selection: {
          excluded: 1,
          waiting: [{ path: 'Videos 2025', bytes: 1_240_000_000, files: 312 }],
          askOverBytes: 500_000_000,
        },
      },
      {
        id: 'documents',
        localRoot: `${HOME}/Documents`,
        remoteFolder: '/Documents',
        state: 'held',
        words: 'Waiting for you · 2 conflicts',
        // One message a card: a held pair's words are its hold's (pair-views.ts leaves detail out).
        detail: null,
        paused: false,
        progress: null,
        lastSyncAtMs: nowMs - 3 * 24 * 60 * MINUTE,
        itemsSynced: 3_120,
        issueCount: 2,
        conflictCount: 2,
        leftOut: { ignored: 0, systemFiles: 1 },
        answering: null,
        selection: { excluded: 0, waiting: [], askOverBytes: 500_000_000 },
        hold: {
          reason: 'emptied-root',
          title: 'Folder emptied',
          // The words pair-views.ts and pass-record.ts make for this hold (pair-views.test.ts checks them).
          advice:
            `The folder ${HOME}/Documents is empty, but 214 items of 3120 on the device were synced into it. ` +
            'Nothing was changed on either side. If you deleted them on purpose, choose "Delete them on the ' +
            'device too" and they are deleted on the device too. To bring them back from the device, choose ' +
            '"Restore them here".',
          localDeletes: 0,
          remoteDeletes: 214,
          paths: [
            'Taxes/2023/return.pdf',
            'Taxes/2023/receipts/',
            'Letters/landlord.odt',
            'Recipes/bread.md',
          ],
          canConfirm: true,
          canRestore: true,
          confirmLabel: 'Delete them on the device too',
          restoreLabel: 'Restore them here',
          confirmQuestion: 'Delete 214 items on the device and on every computer that syncs it?',
        },
      },
    ],
    activity: [
      ['uploaded', 'photos', '2024/IMG_20240714_183502.jpg', 1],
      ['downloaded', 'photos', '2024/clip-beach.mp4', 3],
      ['renamed', 'documents', 'Letters/landlord (final).odt', 8],
      ['moved', 'documents', 'Archive/2022/insurance.pdf', 15],
      ['deleted', 'documents', 'Taxes/2023/return.pdf', 21],
      ['conflict', 'documents', 'Notes/shopping (conflict from laptop).md', 33],
      ['created-folder', 'photos', '2024/Autumn', 60],
    ].map(([kind, pairId, path, minutesAgo]) => ({
      pairId: pairId as string,
      kind: kind as ActivityView['kind'],
      path: path as string,
      atMs: nowMs - (minutesAgo as number) * MINUTE,
      localPath: `${pairId === 'photos' ? `${HOME}/Pictures/Family photos` : `${HOME}/Documents`}/${path as string}`,
    })),
    // As the core lists them (app/ui/pairs/pair-issues.ts): what needs the user first, then what is only to be
    // known; the messages are the engine's own words for each code.
    issues: [
      {
        pairId: 'photos',
        kind: 'failed',
        group: 'needs-you',
        path: 'Scans/passport.pdf',
        localPath: `${HOME}/Pictures/Family photos/Scans/passport.pdf`,
        code: 'PERMISSION_DENIED',
        message:
          'It cannot be read: permission denied. Give yourself permission to read it (chmod u+r), or leave it out with a pattern in .mchignore.',
        otherCopy: null,
      },
      {
        pairId: 'photos',
        kind: 'failed',
        group: 'never-as-is',
        path: '2024/before\\after.jpg',
        // Only on the device: nothing here to show in its folder (pair-issues.ts).
        localPath: null,
        code: 'NAME_NOT_ALLOWED',
        message:
          'On the device: its name contains "\\", which mch-sync does not bring here (Windows reads it as a folder separator). Rename it on the device to sync it.',
        otherCopy: null,
      },
      {
        pairId: 'photos',
        kind: 'retry',
        group: 'retry-later',
        path: '2024/raw/DSC_0042.NEF',
        localPath: `${HOME}/Pictures/Family photos/2024/raw/DSC_0042.NEF`,
        code: 'FILE_BUSY',
        message: 'It cannot be read: another program is using it (EBUSY); the next run tries again.',
        otherCopy: null,
      },
      {
        pairId: 'photos',
        kind: 'skipped',
        group: 'skipped',
        path: 'Latest',
        localPath: `${HOME}/Pictures/Family photos/Latest`,
        code: 'SYMLINK',
        message: 'a symbolic link (not followed)',
        otherCopy: null,
      },
      {
        pairId: 'photos',
        kind: 'warning',
        group: 'warning',
        path: '2024/con.jpg',
        localPath: `${HOME}/Pictures/Family photos/2024/con.jpg`,
        code: 'NOT_PORTABLE',
        message: 'the name is a reserved device name on Windows',
        otherCopy: null,
      },
      {
        pairId: 'documents',
        kind: 'conflict',
        group: 'conflict',
        path: 'Notes/shopping.md',
        localPath: `${HOME}/Documents/Notes/shopping.md`,
        code: 'CONFLICT',
        message: 'The file changed here and on the device. Both copies are kept: compare them and keep one.',
        otherCopy: `${HOME}/Documents/Notes/shopping (conflict from laptop).md`,
      },
    ],
    local: {
      '': [
        { name: 'Family photos', path: `${HOME}/Pictures/Family photos`, isFolder: true },
        { name: 'Documents', path: `${HOME}/Documents`, isFolder: true },
      ],
      [`${HOME}/Documents`]: [
        { name: 'Letters', path: `${HOME}/Documents/Letters`, isFolder: true },
        { name: 'report 2024.pdf', path: `${HOME}/Documents/report 2024.pdf`, isFolder: false },
      ],
    },
    shares: [
      {
        shareId: 'sh-1',
        url: 'http://127.0.0.1:8080/s/Qm9uam91ciBsZXMgYW1pcw',
        createdAtMs: nowMs - 2 * 60 * MINUTE,
        items: [
          {
            id: 'i1',
            name: 'Summer holiday',
            localPath: `${HOME}/Pictures/Family photos/2024/Summer holiday`,
            devicePath: '/Photos/2024/Summer holiday',
          },
        ],
      },
      {
        shareId: 'sh-2',
        url: 'http://127.0.0.1:8080/s/cmVwb3J0cy1hbmQtbW9yZQ',
        createdAtMs: nowMs - 9 * 24 * 60 * MINUTE,
        items: [
          {
            id: 'i2',
            name: 'report 2024.pdf',
            localPath: `${HOME}/Documents/report 2024.pdf`,
            devicePath: '/Documents/report 2024.pdf',
          },
          {
            id: 'i3',
            name: 'budget.ods',
            localPath: `${HOME}/Documents/budget.ods`,
            devicePath: '/Documents/budget.ods',
          },
          { id: 'i4', name: null, localPath: null, devicePath: null },
        ],
      },
    ],
    matches: [
      {
        id: 'm1',
        name: 'Annual report 2024.pdf',
        isFolder: false,
        size: 1_482_113,
        mimeType: 'application/pdf',
        mTimeMs: nowMs - 5 * 24 * 60 * MINUTE,
        devicePath: '/Documents/Annual report 2024.pdf',
        localPath: `${HOME}/Documents/Annual report 2024.pdf`,
        fragments: [{ field: 'name', text: 'Annual report 2024.pdf', locations: [{ index: 7, length: 6 }] }],
      },
      {
        id: 'm2',
        name: '🎉 report of the party.txt',
        isFolder: false,
        size: 2_311,
        mimeType: 'text/plain',
        mTimeMs: nowMs - 40 * 24 * 60 * MINUTE,
        devicePath: '/Notes/🎉 report of the party.txt',
        localPath: null,
        fragments: [{ field: 'name', text: EMOJI_FRAGMENT, locations: [{ index: 3, length: 6 }] }],
      },
      {
        id: 'm3',
        name: 'Reports',
        isFolder: true,
        size: 0,
        mimeType: 'application/x-folder',
        mTimeMs: null,
        devicePath: '/Documents/Reports',
        localPath: `${HOME}/Documents/Reports`,
        fragments: [{ field: 'name', text: 'Reports', locations: [{ index: 0, length: 6 }] }],
      },
    ],
    photos: [
      {
        id: 'p1',
        name: 'IMG_20240714_183502.jpg',
        size: 5_242_880,
        mediaTimeMs: Date.UTC(2024, 6, 14, 18, 35, 2),
        mediaTimeSource: 'camera',
        width: 4032,
        height: 3024,
        cameraMake: 'Canon',
        cameraModel: 'EOS R6',
        devicePath: '/Photos/2024/IMG_20240714_183502.jpg',
        localPath: `${HOME}/Pictures/Family photos/2024/IMG_20240714_183502.jpg`,
      },
      {
        id: 'p2',
        name: 'screenshot-map.png',
        size: 402_112,
        mediaTimeMs: Date.UTC(2024, 6, 15, 9, 12, 0),
        mediaTimeSource: 'modified',
        width: 1280,
        height: 800,
        cameraMake: null,
        cameraModel: null,
        devicePath: '/Photos/2024/screenshot-map.png',
        localPath: null,
      },
    ],
    settings: {
      startAtLogin: true,
      fileManagerEntries: true,
      notifications: true,
      pollIntervalSeconds: 60,
      ignoreRules: '*.tmp\nnode_modules/\n',
    },
    network: {
      limits: { upBytesPerSec: 2_000_000, downBytesPerSec: null },
      proxy: {
        url: 'http://proxy.example:3128',
        user: 'ann',
        hasPassword: true,
        source: 'manual',
        effective: 'http://proxy.example:3128',
        noProxy: 'localhost,127.0.0.1',
      },
    },
    selection: {
      '': [
        { path: '2023', name: '2023', id: 's-2023', state: 'synced', bytes: 3_210_000_000, files: 812 },
        { path: '2024', name: '2024', id: 's-2024', state: 'partly', bytes: 1_930_000_000, files: 402 },
        { path: 'Scans', name: 'Scans', id: 's-scans', state: 'excluded', bytes: null, files: null },
        {
          path: 'Videos 2025',
          name: 'Videos 2025',
          id: 's-videos',
          state: 'waiting',
          bytes: 1_240_000_000,
          files: 312,
        },
      ],
      '2024': [
        {
          path: '2024/Summer holiday in the mountains',
          name: 'Summer holiday in the mountains',
          id: 's-summer',
          state: 'synced',
          bytes: 1_930_000_000,
          files: 402,
        },
        {
          path: '2024/Work trip',
          name: 'Work trip',
          id: 's-trip',
          state: 'excluded',
          bytes: null,
          files: null,
        },
      ],
    },
    versions: versionsSample(nowMs),
    about: {
      version: '0.1.0',
      profileDir: `${HOME}/.config/mch-sync`,
      logsDir: `${HOME}/.config/mch-sync/logs`,
      logFile: `${HOME}/.config/mch-sync/logs/window.log`,
    },
  };
}
