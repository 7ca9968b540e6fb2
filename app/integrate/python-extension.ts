// The python extension of Nautilus, Nemo and Caja: one template that shows "Copy share link" inside synced folders, and each item's sync state as an emblem and as actions.
import { stateSocketDir } from '../file-state/state-socket-path.ts';
import { FOLDER_PAIRS_DIR, STATE_FOLDER_NAME } from '../profile/folder-pairs.ts';
import { emblemKeyword } from './emblem-icons.ts';
import { GENERATED_MARKER, type EntryDescription } from './entry-description.ts';
import { pythonEmblemTable, pythonInfoProvider } from './python/info-provider.ts';
import { PYTHON_STATE_CONNECTION } from './python/state-connection.ts';
import { PYTHON_STATE_SERVICES } from './python/state-services.ts';
import { pythonStateMenu } from './python/state-menu.ts';
import { pythonString } from './quoting.ts';

/** The file managers with a python binding that loads `~/.local/share/<name>-python/extensions/*.py`. */
export type PythonFileManager = 'nautilus' | 'nemo' | 'caja';

// The GObject-introspection namespace each binding has already loaded (with its version) before it
// imports the extensions, which is why the template asks for no version itself: Nautilus 43+ is
// Nautilus 4.0 or 4.1, older ones 3.0, Nemo 3.0, Caja 2.0.
const NAMESPACES: Record<PythonFileManager, string> = { nautilus: 'Nautilus', nemo: 'Nemo', caja: 'Caja' };

/**
 * The extension's source. "Copy share link" reads `<profile>/folders/*.json` (app/profile/folder-pairs.ts)
 * at every menu request, so a folder synced later shows the entry without restarting the file manager,
 * and compares paths as given and with links resolved, the deepest folder first, as `findPairOf` does.
 * The emblems and the actions by state ask the running clients' state services
 * (app/file-state/, common/file-state.ts) through the sockets in STATE_DIR: python/state-services.ts.
 * Without a running client the extension is the share entry alone, as before.
 */
export function renderPythonExtension(description: EntryDescription, fileManager: PythonFileManager): string {
  const namespace = NAMESPACES[fileManager];
  const suffix = description.profileKey === undefined ? '' : `_${description.profileKey}`;
  const command = description.command.map((word) => `    ${pythonString(word)},\n`).join('');
  const emblemPrefix = emblemKeyword(description, 'shared').slice(0, -'shared'.length);
  return `# ${GENERATED_MARKER} for ${namespace}; \`mch-sync integrate --remove\` removes it.
# Shows "${description.label}" when every selected item is inside a folder the profile below syncs (and
# not in its ${STATE_FOLDER_NAME} folder), and runs the command below with the selected paths. While mch-sync
# runs, draws each item's sync state as an emblem and adds the actions its state allows.
import collections
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from urllib.parse import unquote, urlparse

from gi.repository import Gio, GLib, GObject
from gi.repository import ${namespace} as FileManager

PROFILE_DIR = ${pythonString(description.profileDir)}
COMMAND = [
${command}]
LABEL = ${pythonString(description.label)}
TOOLTIP = ${pythonString(description.tooltip)}
ICON = ${pythonString(description.iconName)}
ITEM_NAME = ${pythonString(`MchSyncShare${suffix}::CopyShareLink`)}
STATE_FOLDER = ${pythonString(STATE_FOLDER_NAME)}
PAIR_FILE = re.compile(r"^[0-9a-f]{16}\\.json$")
STATE_DIR = ${pythonString(stateSocketDir(description.profileDir))}
STATE_ITEM_PREFIX = ${pythonString(`MchSyncState${suffix}::`)}
EMBLEM_PREFIX = ${pythonString(emblemPrefix)}
${pythonEmblemTable()}
# Nautilus 43 and later show no icons in menus and may drop the property; pass it only where it exists.
ICON_ARGUMENT = (
    {"icon": ICON}
    if any(spec.name == "icon" for spec in FileManager.MenuItem.list_properties())
    else {}
)


def synced_folders():
    """The localRoot of every pair file of the profile, read anew at each request (they are tiny)."""
    folder = os.path.join(PROFILE_DIR, ${pythonString(FOLDER_PAIRS_DIR)})
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    roots = []
    for name in names:
        if not PAIR_FILE.match(name):
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as file:
                pair = json.load(file)
        except (OSError, ValueError):
            continue
        root = pair.get("localRoot") if isinstance(pair, dict) and pair.get("version") == 1 else None
        if isinstance(root, str) and os.path.isabs(root):
            roots.append(os.path.normpath(root))
    return roots


def forms(path):
    """The path as given and with links resolved: a file manager may show a folder through a link."""
    real = os.path.realpath(path)
    return [path] if real == path else [path, real]


def parts_below(root, path):
    """The names leading from root to path ([] for root itself), or None when path is not inside it."""
    if path == root:
        return []
    prefix = root if root.endswith(os.sep) else root + os.sep
    return path[len(prefix) :].split(os.sep) if path.startswith(prefix) else None


def shareable(path, roots):
    """Inside a synced folder (the deepest that holds it) and not in that folder's state folder."""
    best = None
    for root in roots:
        for root_form in forms(root):
            for path_form in forms(path):
                parts = parts_below(root_form, path_form)
                if parts is not None and (best is None or len(root_form) > best[0]):
                    best = (len(root_form), parts)
    return best is not None and STATE_FOLDER not in best[1]


def local_path(info):
    """The item's path on this computer, or None for an item a URI names elsewhere (sftp, trash)."""
    get_location = getattr(info, "get_location", None)
    if get_location is not None:
        location = get_location()
        return None if location is None else location.get_path()
    uri = urlparse(info.get_uri())
    return unquote(uri.path, errors="surrogateescape") if uri.scheme == "file" else None


def start(argv):
    """Starts the command on its own, without waiting: the file manager never blocks on it."""
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as error:
        message = "mch-sync: could not run %s (%s); run \`mch-sync integrate --install\` again."
        print(message % (argv[0], error), file=sys.stderr)
        return
    # Reaped in the background, so the file manager keeps no finished child around.
    threading.Thread(target=process.wait, daemon=True).start()


${PYTHON_STATE_SERVICES}${PYTHON_STATE_CONNECTION}${pythonInfoProvider(`MchSyncEmblems${suffix}`)}${pythonStateMenu()}

class MchSyncShareMenu${suffix}(GObject.GObject, FileManager.MenuProvider):
    def get_file_items(self, *args):
        # Nautilus 43 and later pass (files); older Nautilus, Nemo and Caja pass (window, files).
        files = args[-1]
        if not files:
            return []
        roots = synced_folders()
        paths = []
        for info in files:
            path = local_path(info)
            if path is None or not shareable(path, roots):
                return []
            paths.append(path)
        item = FileManager.MenuItem(name=ITEM_NAME, label=LABEL, tip=TOOLTIP, **ICON_ARGUMENT)
        item.connect("activate", lambda _item: start(COMMAND + paths))
        return [item] + state_items(paths, STATE_ITEM_PREFIX)

    def get_background_items(self, *args):
        return []
`;
}
