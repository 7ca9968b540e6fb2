// Debian's tinyproxy, started by a test on a free loopback port with a generated config, and what it logged.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

export interface TinyProxy {
  /** `http://127.0.0.1:PORT`, without credentials. */
  url: string;
  port: number;
  /** The requests it was asked to carry, as logged: `GET http://127.0.0.1:4780/path HTTP/1.1`, `CONNECT host:443 HTTP/1.1`. */
  requests(): string[];
  stop(): Promise<void>;
}

export interface TinyProxyOptions {
  /** `BasicAuth user password`: every request must carry these. */
  basicAuth?: { user: string; password: string };
  /** Ports CONNECT may open (tinyproxy allows every port when none is given). */
  connectPorts?: number[];
}

/** Whether tinyproxy is installed (`apt-get install tinyproxy`); the tests that need it say so when not. */
export function hasTinyproxy(): boolean {
  return spawnSync('sh', ['-c', 'command -v tinyproxy'], { stdio: 'ignore' }).status === 0;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts tinyproxy in the foreground (`-d`) and waits until it accepts connections. */
export async function startTinyproxy(options: TinyProxyOptions = {}): Promise<TinyProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'mch-tinyproxy-'));
  const log = join(dir, 'tinyproxy.log');
  // A port taken between freePort and tinyproxy's bind makes it exit: tried again on another.
  for (let tries = 0; ; tries += 1) {
    const port = await freePort();
    const lines = [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 60',
      `LogFile "${log}"`,
      // CONNECT level logs every request line (GET http://..., CONNECT host:port), nothing more.
      'LogLevel Connect',
      'MaxClients 64',
      'Allow 127.0.0.1',
      'DisableViaHeader Yes',
      ...(options.connectPorts ?? []).map((connectPort) => `ConnectPort ${connectPort}`),
      ...(options.basicAuth === undefined
        ? []
        : [`BasicAuth ${options.basicAuth.user} ${options.basicAuth.password}`]),
    ];
    const config = join(dir, 'tinyproxy.conf');
    writeFileSync(config, `${lines.join('\n')}\n`);
    const child: ChildProcess = spawn('tinyproxy', ['-d', '-c', config], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let exited = false;
    child.once('exit', () => (exited = true));
    const started = Date.now();
    while (!exited && !(await accepts(port))) {
      if (Date.now() - started > 20_000) {
        child.kill('SIGKILL');
        throw new Error(`tinyproxy did not listen on ${port}: ${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (exited) {
      if (tries < 3) continue;
      throw new Error(`tinyproxy exited at start: ${stderr}`);
    }
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      requests: () => {
        let text: string;
        try {
          text = readFileSync(log, 'utf8');
        } catch {
          return [];
        }
        return [...text.matchAll(/Request \(file descriptor \d+\): (.*)$/gm)].map(
          (match) => match[1] as string,
        );
      },
      stop: async () => {
        if (!exited) {
          const gone = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await gone;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}
