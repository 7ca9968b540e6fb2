// The table of `mch-sync` subcommands: each one's usage, options and what runs it (main.ts parses and dispatches).
import type { ParseArgsConfig } from 'node:util';
import type { CommandContext } from './terminal/cli-context.ts';
import { DEVICES_USAGE, LOGIN_USAGE, LOGOUT_USAGE, RUN_USAGE, WHOAMI_USAGE } from './usage.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

export interface Command {
  options: Options;
  /** Whether the command takes arguments besides its options (the words of `search`). */
  takesArguments?: boolean;
  /**
   * The command's own module, loaded only when it is the one given (its usage and what runs it): a
   * command loads what it uses, not every other command's code (`--help` of one command, `status`).
   */
  load: () => Promise<LoadedCommand>;
}

export interface LoadedCommand {
  usage: string;
  run: (context: CommandContext, values: Values, args: string[]) => Promise<number>;
}

const JSON_OPTION: Options = { json: { type: 'boolean' } };
const FOLDER_OPTION: Options = { folder: { type: 'string' } };

/** Every subcommand of `mch-sync`: its usage, options and what runs it. */
export const COMMANDS: Record<string, Command> = {
  login: {
    options: {
      'config-url': { type: 'string' },
      username: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      device: { type: 'string' },
      'no-browser': { type: 'boolean' },
    },
    load: async () => {
      const m = await import('./account-commands/login-command.ts');
      return { usage: LOGIN_USAGE, run: (context, values) => m.runLogin(context, values) };
    },
  },
  logout: {
    options: {},
    load: async () => {
      const m = await import('./account-commands/logout-command.ts');
      return { usage: LOGOUT_USAGE, run: (context) => m.runLogout(context) };
    },
  },
  whoami: {
    options: JSON_OPTION,
    load: async () => {
      const m = await import('./account-commands/whoami-command.ts');
      return { usage: WHOAMI_USAGE, run: (context, values) => m.runWhoami(context, values) };
    },
  },
  devices: {
    options: JSON_OPTION,
    load: async () => {
      const m = await import('./account-commands/devices-command.ts');
      return { usage: DEVICES_USAGE, run: (context, values) => m.runDevices(context, values) };
    },
  },
  // Exits 3 when a pass was held for a choice (EXIT_HELD in run-command.ts).
  run: {
    options: {
      folder: { type: 'string' },
      'remote-folder': { type: 'string' },
      once: { type: 'boolean' },
      'confirm-deletes': { type: 'boolean' },
      restore: { type: 'boolean' },
      json: { type: 'boolean' },
      verbose: { type: 'boolean' },
    },
    load: async () => {
      const m = await import('./sync-commands/run-command.ts');
      return { usage: RUN_USAGE, run: (context, values) => m.runRun(context, values) };
    },
  },
  status: {
    options: { ...FOLDER_OPTION, ...JSON_OPTION },
    load: async () => {
      const m = await import('./sync-commands/status-command.ts');
      return { usage: m.STATUS_USAGE, run: (context, values) => m.runStatus(context, values) };
    },
  },
  pause: {
    options: { ...FOLDER_OPTION, for: { type: 'string' } },
    load: async () => {
      const m = await import('./sync-commands/pause-command.ts');
      return { usage: m.PAUSE_USAGE, run: (context, values) => m.runPause(context, values) };
    },
  },
  metered: {
    options: FOLDER_OPTION,
    takesArguments: true,
    load: async () => {
      const m = await import('./sync-commands/metered-command.ts');
      return { usage: m.METERED_USAGE, run: (context, values, args) => m.runMetered(context, values, args) };
    },
  },
  resume: {
    options: { ...FOLDER_OPTION, 'confirm-deletes': { type: 'boolean' }, restore: { type: 'boolean' } },
    load: async () => {
      const m = await import('./sync-commands/resume-command.ts');
      return { usage: m.RESUME_USAGE, run: (context, values) => m.runResume(context, values) };
    },
  },
  share: {
    options: {
      new: { type: 'boolean' },
      copy: { type: 'boolean' },
      notify: { type: 'boolean' },
      ...JSON_OPTION,
    },
    takesArguments: true,
    load: async () => {
      const m = await import('./share-commands/share-command.ts');
      return { usage: m.SHARE_USAGE, run: (context, values, args) => m.runShare(context, values, args) };
    },
  },
  shares: {
    options: JSON_OPTION,
    load: async () => {
      const m = await import('./share-commands/shares-command.ts');
      return { usage: m.SHARES_USAGE, run: (context, values) => m.runShares(context, values) };
    },
  },
  unshare: {
    options: {},
    takesArguments: true,
    load: async () => {
      const m = await import('./share-commands/unshare-command.ts');
      return { usage: m.UNSHARE_USAGE, run: (context, _values, args) => m.runUnshare(context, args) };
    },
  },
  search: {
    options: {
      limit: { type: 'string' },
      all: { type: 'boolean' },
      'page-token': { type: 'string' },
      ...JSON_OPTION,
    },
    takesArguments: true,
    load: async () => {
      const m = await import('./search-commands/search-command.ts');
      return { usage: m.SEARCH_USAGE, run: (context, values, args) => m.runSearch(context, values, args) };
    },
  },
  photos: {
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      limit: { type: 'string' },
      videos: { type: 'boolean' },
      ...JSON_OPTION,
    },
    load: async () => {
      const m = await import('./search-commands/photos-command.ts');
      return { usage: m.PHOTOS_USAGE, run: (context, values) => m.runPhotos(context, values) };
    },
  },
  folders: {
    options: {
      ...FOLDER_OPTION,
      'remote-folder': { type: 'string' },
      'delete-local-files': { type: 'boolean' },
      'ask-over': { type: 'string' },
      'ask-over-files': { type: 'string' },
      'on-demand': { type: 'boolean' },
      'no-on-demand': { type: 'boolean' },
      'cache-limit': { type: 'string' },
      'no-download': { type: 'string' },
      'keep-versions': { type: 'string' },
      'versions-cap': { type: 'string' },
      conflicts: { type: 'string' },
      ...JSON_OPTION,
    },
    takesArguments: true,
    load: async () => {
      const m = await import('./sync-commands/folders-command.ts');
      return { usage: m.FOLDERS_USAGE, run: (context, values, args) => m.runFolders(context, values, args) };
    },
  },
  select: {
    options: { ...FOLDER_OPTION, depth: { type: 'string' }, ...JSON_OPTION },
    load: async () => {
      const m = await import('./selection-commands/select-command.ts');
      return { usage: m.SELECT_USAGE, run: (context, values) => m.runSelect(context, values) };
    },
  },
  exclude: {
    options: {
      ...FOLDER_OPTION,
      'remove-local': { type: 'boolean' },
      'keep-local': { type: 'boolean' },
      ...JSON_OPTION,
    },
    takesArguments: true,
    load: async () => {
      const m = await import('./selection-commands/exclude-command.ts');
      return { usage: m.EXCLUDE_USAGE, run: (context, values, args) => m.runExclude(context, values, args) };
    },
  },
  include: {
    options: { ...FOLDER_OPTION, ...JSON_OPTION },
    takesArguments: true,
    load: async () => {
      const m = await import('./selection-commands/include-command.ts');
      return { usage: m.INCLUDE_USAGE, run: (context, values, args) => m.runInclude(context, values, args) };
    },
  },
  state: {
    options: JSON_OPTION,
    takesArguments: true,
    load: async () => {
      const m = await import('./state-commands/state-command.ts');
      return { usage: m.STATE_USAGE, run: (context, values, args) => m.runState(context, values, args) };
    },
  },
  pin: {
    options: JSON_OPTION,
    takesArguments: true,
    load: async () => {
      const m = await import('./on-demand-commands/pin-command.ts');
      return { usage: m.PIN_USAGE, run: (context, values, args) => m.runPin(context, values, args) };
    },
  },
  unpin: {
    options: JSON_OPTION,
    takesArguments: true,
    load: async () => {
      const m = await import('./on-demand-commands/unpin-command.ts');
      return { usage: m.UNPIN_USAGE, run: (context, values, args) => m.runUnpin(context, values, args) };
    },
  },
  free: {
    options: JSON_OPTION,
    takesArguments: true,
    load: async () => {
      const m = await import('./on-demand-commands/free-command.ts');
      return { usage: m.FREE_USAGE, run: (context, values, args) => m.runFree(context, values, args) };
    },
  },
  versions: {
    options: { clear: { type: 'boolean' }, ...FOLDER_OPTION, yes: { type: 'boolean' }, ...JSON_OPTION },
    takesArguments: true,
    load: async () => {
      const m = await import('./version-commands/versions-command.ts');
      return {
        usage: m.VERSIONS_USAGE,
        run: (context, values, args) => m.runVersions(context, values, args),
      };
    },
  },
  restore: {
    options: {
      version: { type: 'string' },
      to: { type: 'string' },
      deleted: { type: 'boolean' },
      'all-since': { type: 'string' },
      ...FOLDER_OPTION,
      ...JSON_OPTION,
    },
    takesArguments: true,
    load: async () => {
      const m = await import('./version-commands/restore-command.ts');
      return { usage: m.RESTORE_USAGE, run: (context, values, args) => m.runRestore(context, values, args) };
    },
  },
  deleted: {
    options: { ...FOLDER_OPTION, since: { type: 'string' }, ...JSON_OPTION },
    load: async () => {
      const m = await import('./version-commands/deleted-command.ts');
      return { usage: m.DELETED_USAGE, run: (context, values) => m.runDeleted(context, values) };
    },
  },
  conflicts: {
    options: { ...FOLDER_OPTION, ...JSON_OPTION },
    load: async () => {
      const m = await import('./version-commands/conflicts-command.ts');
      return { usage: m.CONFLICTS_USAGE, run: (context, values) => m.runConflicts(context, values) };
    },
  },
  resolve: {
    options: { keep: { type: 'string' }, ...JSON_OPTION },
    takesArguments: true,
    load: async () => {
      const m = await import('./version-commands/resolve-command.ts');
      return { usage: m.RESOLVE_USAGE, run: (context, values, args) => m.runResolve(context, values, args) };
    },
  },
  ui: {
    options: { port: { type: 'string' }, 'no-open': { type: 'boolean' } },
    load: async () => {
      const m = await import('./ui-command.ts');
      return { usage: m.UI_USAGE, run: (context, values) => m.runUi(context, values) };
    },
  },
  integrate: {
    options: {
      install: { type: 'boolean' },
      remove: { type: 'boolean' },
      status: { type: 'boolean' },
      command: { type: 'string' },
    },
    load: async () => {
      const m = await import('./integrate-command.ts');
      return { usage: m.INTEGRATE_USAGE, run: (context, values) => m.runIntegrate(context, values) };
    },
  },
  limits: {
    options: { up: { type: 'string' }, down: { type: 'string' }, ...JSON_OPTION },
    load: async () => {
      const m = await import('./network-commands/limits-command.ts');
      return { usage: m.LIMITS_USAGE, run: (context, values) => m.runLimits(context, values) };
    },
  },
  proxy: {
    options: {
      set: { type: 'string' },
      user: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      off: { type: 'boolean' },
      show: { type: 'boolean' },
      ...JSON_OPTION,
    },
    load: async () => {
      const m = await import('./network-commands/proxy-command.ts');
      return { usage: m.PROXY_USAGE, run: (context, values) => m.runProxy(context, values) };
    },
  },
  act: {
    options: { notify: { type: 'boolean' } },
    takesArguments: true,
    load: async () => {
      const { ACT_COMMAND } = await import('./act-command.ts');
      return { usage: ACT_COMMAND.usage, run: ACT_COMMAND.run };
    },
  },
};
