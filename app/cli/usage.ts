// The help texts of the `mch-sync` command and its subcommands.

export const MAIN_USAGE = `Usage: mch-sync [--profile DIR] <command> [options]

Keeps a folder in sync with your personal cloud device. Commands:
  login      sign in (in the browser, or with --username and --password-stdin)
  logout     sign out: revoke the sign-in and delete the stored tokens
  whoami     show who is signed in, the device and where the tokens are kept
  devices    list your devices and the address each answers on
  run        sync a folder with the device, live until stopped (\`--once\`: one pass and exit)
  folders    list, add, set or remove the folder pairs \`run\` (without --folder) syncs
  select     the device folder tree of a pair: which folders this computer holds
  exclude    stop syncing a device folder here (it stays on the device, untouched)
  include    sync an excluded device folder here again
  pin        keep files of an on-demand folder on this computer (downloaded whole)
  unpin      stop keeping them (they stay until freed)
  free       free up space: files of an on-demand folder become placeholders again
  versions   the versions kept of a file: when and why each was kept (\`--clear\`: remove a folder's)
  restore    put a version back, or deleted files where they were
  deleted    the files deleted that can be restored
  conflicts  the conflicts waiting to be settled
  resolve    settle a conflict: keep this computer's version, the device's, or both
  status     what live sync of a folder is doing (or what its last pass left)
  state      the sync state of files and folders, as the file manager's emblems show it
  pause      pause live sync of a folder, until resumed or for a while (--for 1h, tomorrow)
  resume     resume live sync of a folder
  metered    whether a folder syncs on metered networks (a phone's hotspot) or waits
  share      make (or find) the link of synced files and folders; --copy puts it on the clipboard
  shares     list your share links
  unshare    revoke a share link
  search     find files on the device by name or camera, and where each is here
  photos     list the photos on the device taken between two dates
  limits     show or set the upload and download limits (all folder pairs together)
  proxy      show or set the proxy (else HTTPS_PROXY, HTTP_PROXY and NO_PROXY are used)
  ui         show the app's window in a browser (every folder pair syncs while it runs)
  integrate  add (or remove) the file managers' emblems, menu entries and sidebar places
  act        do what a file manager's menu entry does (keep, free, sync or stop syncing, show)

Options:
  --profile DIR   profile folder (default: $MCH_PROFILE, else the platform's config folder)
  -h, --help      show this help; \`mch-sync <command> --help\` shows a command's

Environment:
  MCH_PROFILE        profile folder, when --profile is not given
  MCH_SECRET_STORE   "keychain" or "file": where login keeps the tokens (default: the system
                     keychain when one works, else secrets.json in the profile, mode 0600)

Exit codes: 0 done, 1 failed (run: some items were not synced), 2 usage error.
            3 (run) held: the pass would delete many items; nothing was deleted.`;

export const LOGIN_USAGE = `Usage: mch-sync [--profile DIR] login [--config-url URL] [options]

Signs in. Without --username a browser opens on the sign-in page; the address is printed too, for a
browser on another computer.

Options:
  --config-url URL   the configuration service (required the first time; remembered afterwards)
  --username NAME    sign in without a browser, reading the password from stdin
  --password-stdin   read the password from stdin (goes with --username)
  --device ID        the device to use, by id or name (default: the first of your account)
  --no-browser       do not open a browser; only print the address to open
  -h, --help         show this help

Example (headless): printf '%s' "$PASSWORD" | mch-sync login --config-url URL --username alice --password-stdin`;

export const LOGOUT_USAGE = `Usage: mch-sync [--profile DIR] logout

Revokes the sign-in at the identity provider, deletes the stored tokens and forgets the user and the
device. The configuration URL is kept for the next login.`;

export const WHOAMI_USAGE = `Usage: mch-sync [--profile DIR] whoami [--json]

Shows the signed-in user (asking the identity provider, so it proves the sign-in works), the
configuration URL, the device, when the access token expires and where the tokens are kept.

Options:
  --json   machine-readable output`;

export const DEVICES_USAGE = `Usage: mch-sync [--profile DIR] devices [--json]

Lists the devices of your account; the one this profile uses is marked with * and shown with the
address it answers on.

Options:
  --json   machine-readable output`;

export const RUN_USAGE = `Usage: mch-sync [--profile DIR] run [--folder DIR [--remote-folder PATH]] [--once] [options]

Syncs a local folder with a folder on the device, both ways. Renames and moves are carried over as
renames; a file changed on both sides keeps both versions (the local one becomes "name (conflicted copy
DATE TIME).ext"); files deleted on the device go to the trash here.

Without --once it keeps syncing until Ctrl+C (or SIGTERM): local changes go up about a second after
they happen, the device is asked for changes every 30 s. \`mch-sync status\`, \`pause\` and \`resume\`
talk to it; its log is <profile>/logs/live-<folder key>.log.

Options:
  --folder DIR           the local folder (must exist); without it, every folder pair of the
                         profile (\`mch-sync folders list\`), one after the other with --once
  --remote-folder PATH   the device folder, a slash path from the device root (default: the one
                         the folder is paired with, else /<name of the local folder>); created
                         when missing
  --once                 run one pass and exit
  --confirm-deletes      (with --once) answer a held pass: go ahead with the many deletes it holds,
                         delete on the device what was deleted from an emptied folder, or sync a
                         folder that is not the one synced as it is now
  --restore              (with --once) answer it the other way: bring back what the deletes would
                         remove, or keep everything on both sides of a folder or device that is
                         not the one synced
  --json                 (with --once) print the pass report as JSON instead of the summary;
                         without --folder, one JSON array for the run: per pair its "localRoot",
                         "remoteFolder" and pass report, or "error" {"code", "message"}
  --verbose              print what the engine does
  -h, --help             show this help

One run per folder at a time: a second one exits with 1 while the first is running.

A pass that leaves any item unsynced never says the sides match: the summary (and --json, each
issue's "remedy") lists those items by what you can do: "Needs you" (free space, a permission, a
read-only disk), "Cannot sync as it is" (a name or path the other side cannot hold: rename or move
it), "Not synced yet" (tried again next run by itself). Items left out on purpose (.mchignore
patterns, temporary and system files, symbolic links) are listed too, and do not count.

A folder that was synced and is now empty (everything in it deleted, the folder itself still there)
is never read silently either way: the pass is held, nothing changes on either side, and the summary
names both ways out: --confirm-deletes deletes those items on the device too, --restore brings them
back from the device. A missing or unreadable folder stops the run (exit 1), nothing changed.

Exit codes (the same with --json): 0 both sides match (or a live run stopped cleanly), 1 some items
were not synced (or the run could not start), 2 usage error, 3 held: the pass would delete more than
50 items and more than 30% of one side, or the folder was emptied; nothing was deleted, and the
summary says what to run to go on.`;
