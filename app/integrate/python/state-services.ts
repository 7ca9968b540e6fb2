// The python extension's link to the running clients: one connection per state socket, found and refound without polling, answers cached per folder.

/**
 * Python source (after the extension's header, which defines STATE_DIR, synced_folders, parts_below
 * and GLib/Gio; followed by PYTHON_STATE_CONNECTION): `StateServices`, the one object every provider
 * of the extension asks.
 *
 * - One connection per `<STATE_DIR>/<pid>.sock` (state-connection.ts).
 * - The sockets are listed at start and whenever a Gio.FileMonitor on the folder reports a change
 *   (a client started or stopped); a socket that refuses is tried again with a growing delay. A
 *   client found or lost invalidates the file objects in its folders, which the file manager then
 *   asks about again: a file manager started before the client recovers without a restart.
 * - A folder's states come from ONE `children` request, cached (at most MAX_FOLDERS folders, least
 *   recently used dropped) and kept current by the `changed` lines the service pushes; the file
 *   objects seen are kept per folder, so a change invalidates exactly the items it names. Reader
 *   threads never touch a file object: invalidation runs on the GLib main loop (GLib.idle_add).
 * - The cache is the answer's own `entries` dict, by name (a state string, or an object when more is
 *   said: common/file-state.ts), taken as json.loads made it: no work per entry on the reader thread
 *   (10,000 of them are read in about a millisecond). A pushed change puts its full answer under the
 *   item's name; an item asked for gets a dict either way.
 */
export const PYTHON_STATE_SERVICES = String.raw`
SOCKET_NAME = re.compile(r"^[0-9]{1,10}\.sock$")
# The longest a file manager waits for an answer; an answer that comes later still fills the cache and
# the items concerned are invalidated then.
ANSWER_TIMEOUT = 0.5
# Backoff for a socket that is there but refuses (a client that crashed, or one starting).
RETRY_FIRST = 0.5
RETRY_MOST = 30.0
MAX_FOLDERS = 200
SYNCED_TTL = 2.0


class _Folder:
    """A folder's states as one children request gave them, kept current by the pushed changes."""

    def __init__(self, connection, path):
        self.connection = connection
        self.path = path
        self.own = None
        # name -> the answer's entry: a state string, or a dict (a pushed change is a full answer).
        self.states = {}
        self.ready = threading.Event()
        self.deadline = time.monotonic() + ANSWER_TIMEOUT


def private_dir(path):
    """The state folder is trusted only when it is this user's and no one else may write in it."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return info.st_uid == os.getuid() and info.st_mode & 0o022 == 0


class StateServices:
    def __init__(self):
        self._lock = threading.RLock()
        self._connections = {}
        self._folders = collections.OrderedDict()
        self._infos = collections.OrderedDict()
        self._pending = set()
        self._flushing = False
        self._retry = RETRY_FIRST
        self._retry_source = 0
        self._monitor = None
        self._synced = (0.0, [])
        self._real_parents = {}

    def start(self):
        """On the main thread, at the first question: the folder watched, the sockets connected."""
        if self._monitor is not None:
            return
        # GLib watches a folder that does not exist yet too, and reports it when it appears.
        self._monitor = Gio.File.new_for_path(STATE_DIR).monitor_directory(Gio.FileMonitorFlags.NONE, None)
        self._monitor.connect("changed", lambda *_args: self.refresh())
        self.refresh()

    def refresh(self):
        """Connects to every socket not yet connected; one that refuses is tried again later."""
        try:
            names = os.listdir(STATE_DIR) if private_dir(STATE_DIR) else []
        except OSError:
            names = []
        refused = False
        for name in names:
            path = os.path.join(STATE_DIR, name)
            with self._lock:
                known = path in self._connections and self._connections[path].alive
            if known or not SOCKET_NAME.match(name):
                continue
            try:
                if os.lstat(path).st_uid != os.getuid():
                    continue
                connection = _Connection(path, self)
            except OSError:
                refused = True
                continue
            with self._lock:
                self._connections[path] = connection
            connection.send({"op": "subscribe"})
            # The hello says which folders it serves: the question that made us connect needs them.
            connection.hello.wait(ANSWER_TIMEOUT)
        if refused and self._retry_source == 0:
            self._retry_source = GLib.timeout_add(int(self._retry * 1000), self._retry_now)
            self._retry = min(self._retry * 2, RETRY_MOST)
        elif not refused:
            self._retry = RETRY_FIRST
        return False

    def _retry_now(self):
        self._retry_source = 0
        self.refresh()
        return False

    def synced_roots(self):
        """The profile's synced folders, read again at most every SYNCED_TTL seconds."""
        at, roots = self._synced
        if time.monotonic() - at > SYNCED_TTL:
            roots = synced_folders()
            self._synced = (time.monotonic(), roots)
        return roots

    def serving(self, path):
        """The connection whose deepest folder holds the path, and the path as that client names it."""
        with self._lock:
            connections = [c for c in self._connections.values() if c.alive]
        found = best_folder(path, connections)
        if found is None:
            parent = os.path.dirname(path)
            real = self._real_parents.get(parent)
            if real is None:
                if len(self._real_parents) > 1000:
                    self._real_parents.clear()
                real = self._real_parents[parent] = os.path.realpath(parent)
            if real != parent:
                found = best_folder(os.path.join(real, os.path.basename(path)), connections)
        return (None, path) if found is None else found

    def state_of(self, path):
        """A path's answer from its folder's cache (one children request per folder), or None."""
        connection, named = self.serving(path)
        if connection is None:
            return None
        parent = named if named in connection.folders else os.path.dirname(named)
        folder = self._folder(connection, parent)
        folder.ready.wait(max(0.0, folder.deadline - time.monotonic()))
        with self._lock:
            if named == parent:
                return folder.own
            entry = folder.states.get(os.path.basename(named))
        return {"state": entry} if isinstance(entry, str) else entry

    def ask_states(self, paths):
        """The answers for a selection, asked anew (one request per client); None unless all answered."""
        groups = collections.OrderedDict()
        for path in paths:
            connection, named = self.serving(path)
            if connection is None:
                return None
            groups.setdefault(connection, []).append(named)
        answers = []
        for connection, named in groups.items():
            message = connection.ask({"op": "state", "paths": named})
            states = message.get("states") if isinstance(message, dict) else None
            if not isinstance(states, list) or len(states) != len(named):
                return None
            answers.extend((connection, state) for state in states)
        return answers

    def remember(self, path, info):
        """Keeps the file object, per folder, so a change to the path can invalidate it."""
        parent = os.path.dirname(path)
        with self._lock:
            infos = self._infos.get(parent)
            if infos is None:
                infos = self._infos[parent] = {}
                while len(self._infos) > MAX_FOLDERS:
                    self._infos.popitem(last=False)
            else:
                self._infos.move_to_end(parent)
            infos[path] = info

    def _folder(self, connection, path):
        with self._lock:
            folder = self._folders.get(path)
            if folder is not None and folder.connection is connection:
                self._folders.move_to_end(path)
                return folder
            folder = self._folders[path] = _Folder(connection, path)
            while len(self._folders) > MAX_FOLDERS:
                self._folders.popitem(last=False)
        if connection.send({"op": "children", "path": path}, lambda message: self._filled(folder, message)) is None:
            folder.ready.set()
        return folder

    def _filled(self, folder, message):
        """On the reader thread: the children answer into the cache; items asked in vain are invalidated."""
        with self._lock:
            if isinstance(message, dict) and message.get("type") == "answer":
                own = message.get("folder")
                entries = message.get("entries")
                folder.own = own if isinstance(own, dict) else None
                # Lines come in the order the client wrote them: this answer is newer than any change
                # before it, so it replaces whatever those put in the cache.
                folder.states = entries if isinstance(entries, dict) else {}
            late = time.monotonic() > folder.deadline
        folder.ready.set()
        if late:
            self._invalidate_under(folder.path, children_only=True)

    def changed(self, connection, states):
        """On the reader thread: pushed states into the caches, their items invalidated."""
        paths = []
        with self._lock:
            for state in states:
                path = state.get("path") if isinstance(state, dict) else None
                if not isinstance(path, str):
                    continue
                folder = self._folders.get(os.path.dirname(path))
                if folder is not None and folder.connection is connection:
                    folder.states[os.path.basename(path)] = state
                own = self._folders.get(path)
                if own is not None and own.connection is connection:
                    own.own = state
                paths.append(path)
        self._schedule(paths)

    def folders_changed(self, connection, folders):
        """A client's folders came or changed: what it serves is asked again."""
        for folder in folders:
            self._invalidate_under(folder)

    def lost(self, connection):
        with self._lock:
            if self._connections.get(connection.path) is connection:
                del self._connections[connection.path]
        for folder in connection.folders:
            self._invalidate_under(folder)
        # The client may be restarting: its new socket is reported by the monitor; a stale one retried.
        GLib.idle_add(self.refresh)

    def _invalidate_under(self, root, children_only=False):
        """The items seen in root (children_only), or at and below it, its cached folders dropped."""
        prefix = root.rstrip(os.sep) + os.sep
        below = lambda path: path == root or path.startswith(prefix)
        with self._lock:
            if children_only:
                paths = list(self._infos.get(root, {}))
            else:
                for path in [p for p in self._folders if below(p)]:
                    del self._folders[path]
                paths = [path for infos in self._infos.values() for path in infos if below(path)]
        self._schedule(paths)

    def _schedule(self, paths):
        if not paths:
            return
        with self._lock:
            self._pending.update(paths)
            if self._flushing:
                return
            self._flushing = True
        GLib.idle_add(self._flush)

    def _flush(self):
        """On the main loop: the file manager told that these items' extension info is out of date."""
        with self._lock:
            paths, self._pending, self._flushing = self._pending, set(), False
            infos = [self._infos.get(os.path.dirname(p), {}).get(p) for p in paths]
        for info in infos:
            if info is not None:
                info.invalidate_extension_info()
        return False


def best_folder(path, connections):
    best = None
    for connection in connections:
        for folder in connection.folders:
            if parts_below(folder, path) is not None and (best is None or len(folder) > best[2]):
                best = (connection, path, len(folder))
    return None if best is None else best[:2]


services = StateServices()
`;
