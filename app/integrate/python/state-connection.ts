// The python extension's connection to one running client's state socket: a reader thread, requests matched to answers by id, never a long wait.

/**
 * Python source: `_Connection`. Requests go out under a lock; answers are matched by id and waited for
 * at most ANSWER_TIMEOUT (defined by state-services.ts), so the file manager never hangs on a busy or
 * stuck client. A request may carry `on_answer`, run on the reader thread when its answer comes, even
 * after the asker stopped waiting: that is how a late answer still fills the cache. The `hello` and
 * `folders` lines set the folders it serves; `changed` lines go to the services.
 */
export const PYTHON_STATE_CONNECTION = String.raw`
class _Waiter:
    """One request's answer, set by the reader thread; on_answer runs there first (it fills caches)."""

    def __init__(self, on_answer=None):
        self.event = threading.Event()
        self.message = None
        self.on_answer = on_answer


class _Connection:
    """One running client's state socket: a reader thread, requests matched to their answers by id."""

    def __init__(self, path, services):
        self.path = path
        self.services = services
        self.folders = []
        self.alive = True
        self.hello = threading.Event()
        self._lock = threading.Lock()
        self._waiting = {}
        self._next = 1
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(ANSWER_TIMEOUT)
        try:
            self._sock.connect(path)
        except OSError:
            self._sock.close()
            raise
        self._sock.settimeout(None)
        threading.Thread(target=self._read, name="mch-sync-state", daemon=True).start()

    def send(self, request, on_answer=None):
        """Sends a request; its waiter, or None when the connection is gone."""
        waiter = _Waiter(on_answer)
        with self._lock:
            if not self.alive:
                return None
            request_id = self._next
            self._next += 1
            self._waiting[request_id] = waiter
            try:
                self._sock.sendall(encode_line(dict(request, id=request_id)))
            except (OSError, ValueError):
                # ValueError: a name that is not UTF-8, which the service could not name either.
                self._waiting.pop(request_id, None)
                return None
        return waiter

    def ask(self, request, timeout=ANSWER_TIMEOUT):
        """The answer to a request, or None when none came in time."""
        waiter = self.send(request)
        if waiter is None or not waiter.event.wait(timeout):
            return None
        return waiter.message

    def close(self):
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _read(self):
        buffer = bytearray()
        try:
            while True:
                chunk = self._sock.recv(1 << 16)
                if not chunk:
                    break
                start = len(buffer)
                buffer += chunk
                end = buffer.find(b"\n", start)
                while end >= 0:
                    line = bytes(buffer[:end])
                    del buffer[: end + 1]
                    try:
                        message = json.loads(line.decode("utf-8"))
                    except ValueError:
                        message = None
                    if isinstance(message, dict):
                        self._receive(message)
                    end = buffer.find(b"\n")
        except OSError:
            pass
        finally:
            self._lost()

    def _receive(self, message):
        kind = message.get("type")
        if kind in ("hello", "folders"):
            old, self.folders = self.folders, [os.path.normpath(f) for f in message.get("folders") or [] if isinstance(f, str)]
            self.hello.set()
            self.services.folders_changed(self, old + self.folders)
        elif kind == "changed":
            self.services.changed(self, message.get("states") or [])
        elif "id" in message:
            with self._lock:
                waiter = self._waiting.pop(message.get("id"), None)
            if waiter is not None:
                waiter.message = message
                if waiter.on_answer is not None:
                    waiter.on_answer(message)
                waiter.event.set()

    def _lost(self):
        with self._lock:
            self.alive = False
            waiting, self._waiting = self._waiting, {}
        self._sock.close()
        self.hello.set()
        for waiter in waiting.values():
            if waiter.on_answer is not None:
                waiter.on_answer(None)
            waiter.event.set()
        self.services.lost(self)


def encode_line(request):
    return (json.dumps(request, ensure_ascii=False) + "\n").encode("utf-8")
`;
