// A home network between a bench and the device: a TCP forwarder whose device-to-client direction is capped.
//
// On loopback the device, the client and every reader share this machine's cores, so a download's speed
// is a contest for CPU, not the network a real device sits behind. Through this link both a raw GET and
// the client's own requests meet the same ceiling (one budget for all connections, as one link has),
// and a comparison says what the client adds on a real network. Requests go through uncapped. The link
// runs in a process of its own, so that its CPU is not counted as the bench process's.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

export interface ThrottledLink {
  /** The device's base URL through the link. */
  readonly base: string;
  close(): Promise<void>;
}

/** Ahead of the link's schedule by more than this, a connection stops reading from the device for a while. */
const SLACK_MS = 4;

/** Starts the link in a child process: 127.0.0.1:<new port> to `target`, at most `bytesPerSecond` down. */
export async function startThrottledLink(target: string, bytesPerSecond: number): Promise<ThrottledLink> {
  const child = spawn(process.execPath, [import.meta.filename, target, String(bytesPerSecond)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.setEncoding('utf8');
  let output = '';
  while (!output.includes('\n')) {
    const [chunk] = (await Promise.race([once(child.stdout, 'data'), once(child, 'exit')])) as [unknown];
    if (typeof chunk !== 'string') throw new Error('the throttled link did not start');
    output += chunk;
  }
  return {
    base: output.split('\n')[0] as string,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The link itself: forwards until the process is ended. */
async function serveLink(target: string, bytesPerSecond: number): Promise<ThrottledLink> {
  const { hostname, port } = new URL(target);
  // When the link is free again: every chunk sent books its time on it.
  let freeAt = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const device = createConnection({ host: hostname, port: Number(port) });
    for (const socket of [client, device]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        device.destroy();
      });
    }
    client.pipe(device);
    device.on('data', (chunk: Buffer) => {
      const now = performance.now();
      freeAt = Math.max(freeAt, now) + (chunk.length / bytesPerSecond) * 1000;
      const wait = freeAt - now;
      // A chunk leaves when the link has carried it: the reader sees the link's rate, not bursts.
      const send = (): void => {
        if (!client.destroyed) client.write(chunk);
      };
      if (wait <= SLACK_MS) {
        send();
        return;
      }
      device.pause();
      setTimeout(() => {
        send();
        device.resume();
      }, wait);
    });
    device.on('end', () => {
      // After the last chunk's own time on the link.
      setTimeout(() => client.end(), Math.max(0, freeAt - performance.now()));
    });
    client.on('end', () => device.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the link has no port');
  const base = new URL(target);
  base.port = String(address.port);
  return {
    base: base.toString().replace(/\/$/, ''),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

if (process.argv[1] === import.meta.filename) {
  const link = await serveLink(process.argv[2] as string, Number(process.argv[3]));
  process.stdout.write(`${link.base}\n`);
  process.on('SIGTERM', () => void link.close().then(() => process.exit(0)));
}
