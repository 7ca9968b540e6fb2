// The table of `mch-sync` subcommands: each one's usage, options and what runs it (main.ts parses and dispatches).
import type { ParseArgsConfig } from 'node:util';
import type { CommandContext } from './terminal/cli-context.ts';
import { runDevices } from './account-commands/devices-command.ts';
import { INTEGRATE_USAGE, runIntegrate } from './integrate-command.ts';
import { ACT_COMMAND } from './act-command.ts';
import { runLogin } from './account-commands/login-command.ts';
import { runLogout } from './account-commands/logout-command.ts';
import { runRun } from './sync-commands/run-command.ts';
import { DEVICES_USAGE, LOGIN_USAGE, LOGOUT_USAGE, RUN_USAGE, WHOAMI_USAGE } from './usage.ts';
import { runWhoami } from './account-commands/whoami-command.ts';
import { PAUSE_USAGE, runPause } from './sync-commands/pause-command.ts';
import { RESUME_USAGE, runResume } from './sync-commands/resume-command.ts';
import { METERED_USAGE, runMetered } from './sync-commands/metered-command.ts';
import { runStatus, STATUS_USAGE } from './sync-commands/status-command.ts';
import { FOLDERS_USAGE, runFolders } from './sync-commands/folders-command.ts';
import { runUi, UI_USAGE } from './ui-command.ts';
import { runShare, SHARE_USAGE } from './share-commands/share-command.ts';
import { runShares, SHARES_USAGE } from './share-commands/shares-command.ts';
import { runUnshare, UNSHARE_USAGE } from './share-commands/unshare-command.ts';
import { PHOTOS_USAGE, runPhotos } from './search-commands/photos-command.ts';
import { runSearch, SEARCH_USAGE } from './search-commands/search-command.ts';
import { EXCLUDE_USAGE, runExclude } from './selection-commands/exclude-command.ts';
import { INCLUDE_USAGE, runInclude } from './selection-commands/include-command.ts';
import { runSelect, SELECT_USAGE } from './selection-commands/select-command.ts';
import { PIN_USAGE, runPin } from './on-demand-commands/pin-command.ts';
import { runState, STATE_USAGE } from './state-commands/state-command.ts';
import { runUnpin, UNPIN_USAGE } from './on-demand-commands/unpin-command.ts';
import { FREE_USAGE, runFree } from './on-demand-commands/free-command.ts';
import { runVersions, VERSIONS_USAGE } from './version-commands/versions-command.ts';
import { RESTORE_USAGE, runRestore } from './version-commands/restore-command.ts';
import { DELETED_USAGE, runDeleted } from './version-commands/deleted-command.ts';
import { CONFLICTS_USAGE, runConflicts } from './version-commands/conflicts-command.ts';
import { LIMITS_USAGE, runLimits } from './network-commands/limits-command.ts';
import { PROXY_USAGE, runProxy } from './network-commands/proxy-command.ts';
import { RESOLVE_USAGE, runResolve } from './version-commands/resolve-command.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

export interface Command {
  usage: string;
  options: Options;
  /** Whether the command takes arguments besides its options (the words of `search`). */
  takesArguments?: boolean;
  run: (context: CommandContext, values: Values, args: string[]) => Promise<number>;
}

const JSON_OPTION: Options = { json: { type: 'boolean' } };
const FOLDER_OPTION: Options = { folder: { type: 'string' } };

/** Every subcommand of `mch-sync`: its usage, options and what runs it. */
export const COMMANDS: Record<string, Command> = {
  login: {
    usage: LOGIN_USAGE,
    options: {
      'config-url': { type: 'string' },
      username: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      device: { type: 'string' },
      'no-browser': { type: 'boolean' },
    },
    run: (context, values) => runLogin(context, values),
  },
  logout: { usage: LOGOUT_USAGE, options: {}, run: (context) => runLogout(context) },
  whoami: { usage: WHOAMI_USAGE, options: JSON_OPTION, run: (context, values) => runWhoami(context, values) },
  devices: {
    usage: DEVICES_USAGE,
    options: JSON_OPTION,
    run: (context, values) => runDevices(context, values),
  },
  // Exits 3 when a pass was held for a choice (EXIT_HELD in run-command.ts).
  run: {
    usage: RUN_USAGE,
    options: {
      folder: { type: 'string' },
      'remote-folder': { type: 'string' },
      once: { type: 'boolean' },
      'confirm-deletes': { type: 'boolean' },
      restore: { type: 'boolean' },
      json: { type: 'boolean' },
      verbose: { type: 'boolean' },
    },
    run: (context, values) => runRun(context, values),
  },
  status: {
    usage: STATUS_USAGE,
    options: { ...FOLDER_OPTION, ...JSON_OPTION },
    run: (context, values) => runStatus(context, values),
  },
  pause: {
    usage: PAUSE_USAGE,
    options: { ...FOLDER_OPTION, for: { type: 'string' } },
    run: (context, values) => runPause(context, values),
  },
  metered: {
    usage: METERED_USAGE,
    options: FOLDER_OPTION,
    takesArguments: true,
    run: (context, values, args) => runMetered(context, values, args),
  },
  resume: {
    usage: RESUME_USAGE,
    options: { ...FOLDER_OPTION, 'confirm-deletes': { type: 'boolean' }, restore: { type: 'boolean' } },
    run: (context, values) => runResume(context, values),
  },
  share: {
    usage: SHARE_USAGE,
    options: {
      new: { type: 'boolean' },
      copy: { type: 'boolean' },
      notify: { type: 'boolean' },
      ...JSON_OPTION,
    },
    takesArguments: true,
    run: (context, values, args) => runShare(context, values, args),
  },
  shares: { usage: SHARES_USAGE, options: JSON_OPTION, run: (context, values) => runShares(context, values) },
  unshare: {
    usage: UNSHARE_USAGE,
    options: {},
    takesArguments: true,
    run: (context, _values, args) => runUnshare(context, args),
  },
  search: {
    usage: SEARCH_USAGE,
    options: {
      limit: { type: 'string' },
      all: { type: 'boolean' },
      'page-token': { type: 'string' },
      ...JSON_OPTION,
    },
    takesArguments: true,
    run: (context, values, args) => runSearch(context, values, args),
  },
  photos: {
    usage: PHOTOS_USAGE,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      limit: { type: 'string' },
      videos: { type: 'boolean' },
      ...JSON_OPTION,
    },
    run: (context, values) => runPhotos(context, values),
  },
  folders: {
    usage: FOLDERS_USAGE,
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
    run: (context, values, args) => runFolders(context, values, args),
  },
  select: {
    usage: SELECT_USAGE,
    options: { ...FOLDER_OPTION, depth: { type: 'string' }, ...JSON_OPTION },
    run: (context, values) => runSelect(context, values),
  },
  exclude: {
    usage: EXCLUDE_USAGE,
    options: {
      ...FOLDER_OPTION,
      'remove-local': { type: 'boolean' },
      'keep-local': { type: 'boolean' },
      ...JSON_OPTION,
    },
    takesArguments: true,
    run: (context, values, args) => runExclude(context, values, args),
  },
  include: {
    usage: INCLUDE_USAGE,
    options: { ...FOLDER_OPTION, ...JSON_OPTION },
    takesArguments: true,
    run: (context, values, args) => runInclude(context, values, args),
  },
  state: {
    usage: STATE_USAGE,
    options: JSON_OPTION,
    takesArguments: true,
    run: (context, values, args) => runState(context, values, args),
  },
  pin: {
    usage: PIN_USAGE,
    options: JSON_OPTION,
    takesArguments: true,
    run: (context, values, args) => runPin(context, values, args),
  },
  unpin: {
    usage: UNPIN_USAGE,
    options: JSON_OPTION,
    takesArguments: true,
    run: (context, values, args) => runUnpin(context, values, args),
  },
  free: {
    usage: FREE_USAGE,
    options: JSON_OPTION,
    takesArguments: true,
    run: (context, values, args) => runFree(context, values, args),
  },
  versions: {
    usage: VERSIONS_USAGE,
    options: { clear: { type: 'boolean' }, ...FOLDER_OPTION, yes: { type: 'boolean' }, ...JSON_OPTION },
    takesArguments: true,
    run: (context, values, args) => runVersions(context, values, args),
  },
  restore: {
    usage: RESTORE_USAGE,
    options: {
      version: { type: 'string' },
      to: { type: 'string' },
      deleted: { type: 'boolean' },
      'all-since': { type: 'string' },
      ...FOLDER_OPTION,
      ...JSON_OPTION,
    },
    takesArguments: true,
    run: (context, values, args) => runRestore(context, values, args),
  },
  deleted: {
    usage: DELETED_USAGE,
    options: { ...FOLDER_OPTION, since: { type: 'string' }, ...JSON_OPTION },
    run: (context, values) => runDeleted(context, values),
  },
  conflicts: {
    usage: CONFLICTS_USAGE,
    options: { ...FOLDER_OPTION, ...JSON_OPTION },
    run: (context, values) => runConflicts(context, values),
  },
  resolve: {
    usage: RESOLVE_USAGE,
    options: { keep: { type: 'string' }, ...JSON_OPTION },
    takesArguments: true,
    run: (context, values, args) => runResolve(context, values, args),
  },
  ui: {
    usage: UI_USAGE,
    options: { port: { type: 'string' }, 'no-open': { type: 'boolean' } },
    run: (context, values) => runUi(context, values),
  },
  integrate: {
    usage: INTEGRATE_USAGE,
    options: {
      install: { type: 'boolean' },
      remove: { type: 'boolean' },
      status: { type: 'boolean' },
      command: { type: 'string' },
    },
    run: (context, values) => runIntegrate(context, values),
  },
  limits: {
    usage: LIMITS_USAGE,
    options: { up: { type: 'string' }, down: { type: 'string' }, ...JSON_OPTION },
    run: (context, values) => runLimits(context, values),
  },
  proxy: {
    usage: PROXY_USAGE,
    options: {
      set: { type: 'string' },
      user: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      off: { type: 'boolean' },
      show: { type: 'boolean' },
      ...JSON_OPTION,
    },
    run: (context, values) => runProxy(context, values),
  },
  act: ACT_COMMAND,
};
