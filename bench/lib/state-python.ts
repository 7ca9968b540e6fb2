// A file manager's side of the state socket, in /usr/bin/python3 as the extensions run: stat and `children` timed in turn, or a subscriber that records each push.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Debian's python, the one Nautilus, Nemo and Caja load their python extensions into. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/**
 * Reads lines as the extension's reader does (app/integrate/python/state-connection.ts: recv of 64 KiB,
 * the newline searched from where the last chunk began, json.loads of each line).
 *
 * `query SOCKET FOLDER`: lists FOLDER once (a file manager has the listing already), then for each
 * stdin line `stat-first` or `query-first` does both in that order and prints one JSON line: `statMs`
 * (os.stat of every entry), `queryMs` (one `children` request sent, its answer read, parsed and taken
 * as the extension's cache takes it: its `entries` dict, name → state), `entries`, `bytes`, `pushes`
 * (lines that were not the answer), `windowUs` (the
 * request's start and end on CLOCK_MONOTONIC, python's perf_counter, to cut a profile of the service), and
 * the request's parts: `firstByteMs` (sent to the answer's first bytes: the service's work and its
 * wait for its event loop), `readMs` (first to last byte), `parseMs` (json.loads and the cache).
 *
 * `subscribe SOCKET [FOLDER]`: asks `children` of FOLDER once (what showing it costs), subscribes, and
 * prints for each `changed` line `{"recvMs", "atMs", "count", "states": [[path, state]...]}` (the first
 * 200 states), receive time taken
 * once the line is parsed, on the same clock as atMs (ms since the epoch).
 */
const SCRIPT = String.raw`
import json, os, socket, sys, time

MAX_TOLD = 200

class Lines:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = bytearray()
        self.pending = []
        self.first_at = None

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode("utf-8"))

    def next(self):
        """The next line, as raw bytes."""
        while not self.pending:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("the service closed the socket")
            if self.first_at is None:
                self.first_at = time.perf_counter()
            start = len(self.buffer)
            self.buffer += chunk
            end = self.buffer.find(b"\n", start)
            while end >= 0:
                self.pending.append(bytes(self.buffer[:end]))
                del self.buffer[: end + 1]
                end = self.buffer.find(b"\n")
        return self.pending.pop(0)

def out(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()

def query(socket_path, folder):
    lines = Lines(socket_path)
    hello = json.loads(lines.next().decode("utf-8"))
    assert hello.get("type") == "hello", hello
    paths = [os.path.join(folder, name) for name in os.listdir(folder)]
    next_id = 0

    def stat_all():
        started = time.perf_counter()
        for path in paths:
            os.stat(path)
        return (time.perf_counter() - started) * 1000

    def ask():
        nonlocal next_id
        next_id += 1
        lines.first_at = None
        started = time.perf_counter()
        lines.send({"id": next_id, "op": "children", "path": folder})
        others = 0
        while True:
            line = lines.next()
            read = time.perf_counter()
            message = json.loads(line.decode("utf-8"))
            if message.get("id") == next_id:
                break
            others += 1
        # What the extension's _filled does with the answer (app/integrate/python/state-services.ts).
        entries = message.get("entries")
        states = entries if isinstance(entries, dict) else {}
        ended = time.perf_counter()
        if message.get("type") != "answer":
            raise RuntimeError(message)
        parts = {
            "firstByteMs": (lines.first_at - started) * 1000,
            "readMs": (read - lines.first_at) * 1000,
            "parseMs": (ended - read) * 1000,
        }
        return (ended - started) * 1000, len(states), len(line), others, [started * 1e6, ended * 1e6], parts

    out({"ready": len(paths)})
    for command in sys.stdin:
        command = command.strip()
        if command == "stat-first":
            stat_ms = stat_all()
            query_ms, entries, size, others, window, parts = ask()
        else:
            query_ms, entries, size, others, window, parts = ask()
            stat_ms = stat_all()
        out({"statMs": stat_ms, "queryMs": query_ms, "entries": entries, "bytes": size, "pushes": others, "windowUs": window, **parts})

def subscribe(socket_path, folder):
    lines = Lines(socket_path)
    hello = json.loads(lines.next().decode("utf-8"))
    assert hello.get("type") == "hello", hello
    if folder:
        lines.send({"id": "shown", "op": "children", "path": folder})
    lines.send({"id": "subscribe", "op": "subscribe"})
    while True:
        try:
            line = lines.next()
        except EOFError:
            return
        message = json.loads(line.decode("utf-8"))
        received = time.time() * 1000
        if message.get("type") == "changed":
            states = message["states"]
            # A first pass's pushes may name 100,000 paths: past a few, only their number is told.
            out({
                "recvMs": received,
                "atMs": message.get("atMs"),
                "count": len(states),
                "states": [[state["path"], state["state"]] for state in states[:MAX_TOLD]],
            })
        elif message.get("id") == "subscribe":
            out({"subscribed": True})

if sys.argv[1] == "query":
    query(sys.argv[2], sys.argv[3])
else:
    subscribe(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
`;

/** A python child speaking JSON lines on stdout; `ask` sends a stdin line and waits for the next JSON line. */
export class PythonClient {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: unknown[] = [];
  readonly #waiters: Array<(line: unknown) => void> = [];
  #stderr = '';
  readonly #exited: Promise<void>;

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stderr.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString('utf8')));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const value = JSON.parse(line) as unknown;
      const waiter = this.#waiters.shift();
      if (waiter === undefined) this.#lines.push(value);
      else waiter(value);
    });
  }

  get pid(): number {
    return this.#child.pid as number;
  }

  /** Writes the script into `work` and starts `python3 script args...`. */
  static start(work: string, args: string[]): PythonClient {
    const script = join(work, 'state-client.py');
    writeFileSync(script, SCRIPT);
    return new PythonClient(spawn(SYSTEM_PYTHON, [script, ...args], { stdio: 'pipe' }));
  }

  /** The next JSON line it prints (one already printed first). */
  next<T>(timeoutMs = 600_000): Promise<T> {
    const ready = this.#lines.shift();
    if (ready !== undefined) return Promise.resolve(ready as T);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`python said nothing in time; stderr: ${this.#stderr}`)),
        timeoutMs,
      );
      const fail = (): void => {
        clearTimeout(timer);
        reject(new Error(`python exited: ${this.#stderr}`));
      };
      void this.#exited.then(fail);
      this.#waiters.push((line) => {
        clearTimeout(timer);
        resolve(line as T);
      });
    });
  }

  /** Every JSON line printed and not taken by `next`, taken now. */
  drain<T>(): T[] {
    return this.#lines.splice(0) as T[];
  }

  async ask<T>(command: string): Promise<T> {
    this.#child.stdin.write(`${command}\n`);
    return this.next<T>();
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    this.#child.stdin.end();
    this.#child.kill('SIGTERM');
    await this.#exited;
  }
}
