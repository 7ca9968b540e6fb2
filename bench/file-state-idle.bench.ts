// The state service's idle cost with a file manager subscribed: two equal `mch-sync run` children, one with a subscribed python client, their CPU over the same window through /proc, then the roles swapped.
//
// Two folders of 10,000 small files in 100 folders each, synced to the same device (a child) by `mch-sync
// run --once`, then served by one `mch-sync run` each (bin/mch-sync.js, children of this process) once
// their first passes are over. Phase 1: a python child (/usr/bin/python3, the extensions' python) holds a
// connection to A as the extension does (subscribed, reading pushes on a blocking recv; no `children`
// asked, whose answer's garbage would be collected in the window and is not the subscription's cost), and both services' CPU time (utime + stime of every
// thread, /proc/<pid>/stat, 10 ms ticks) is read over the same BENCH_SECONDS window (default 60 s: two
// of each service's 30 s polls). Phase 2: the same with the client on B instead, so neither process's own
// timing sits on one side only; BENCH_STATE_IDLE_PHASES windows in all (default 4: A, B, A, B). Ratio: the subscribed windows'
// CPU over the unsubscribed ones'. Goal (issue 32): at most 1.05×.
//
//   npm run bench -- file-state-idle   (BENCH_STATE_IDLE_FILES, _PHASES, BENCH_SECONDS)
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeTree } from './lib/file-tree.ts';
import { cpuSeconds, findPid, rssMb } from './lib/process-usage.ts';
import { load, startStateBench, syncOnce } from './lib/state-bench-setup.ts';
import { startLiveChild, type LiveChild } from './lib/state-live-child.ts';
import { PythonClient } from './lib/state-python.ts';

const FILES = Number(process.env['BENCH_STATE_IDLE_FILES'] ?? 10_000);
const FOLDERS = Math.max(1, Math.round(FILES / 100));
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 60);
/** Windows in all, the client on A, then B, then A…: more of them average the polls' and GC's timing out. */
const PHASES = Number(process.env['BENCH_STATE_IDLE_PHASES'] ?? 4);
const GOAL = 1.05;

interface Served {
  name: string;
  live: LiveChild;
}

interface Phase {
  subscribed: string;
  /** CPU seconds in the window, by service name. */
  cpu: Map<string, number>;
  rss: Map<string, number>;
  device: number;
  pushes: number;
  seconds: number;
}

/** One window with a subscribed python client on `on`; both services read over it. */
async function phase(
  work: string,
  on: Served,
  all: readonly Served[],
  devicePid: number | undefined,
): Promise<Phase> {
  const client = PythonClient.start(work, ['subscribe', on.live.socketPath]);
  try {
    await client.next();
    // The subscription is behind us before the window opens.
    await sleep(2_000);
    const started = process.hrtime.bigint();
    const before = new Map(all.map((served) => [served.name, cpuSeconds(served.live.pid)]));
    const deviceBefore = devicePid === undefined ? Number.NaN : cpuSeconds(devicePid);
    await sleep(SECONDS * 1000);
    const cpu = new Map(
      all.map((served) => [served.name, cpuSeconds(served.live.pid) - (before.get(served.name) ?? 0)]),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const device = devicePid === undefined ? Number.NaN : cpuSeconds(devicePid) - deviceBefore;
    const rss = new Map(all.map((served) => [served.name, rssMb(served.live.pid)]));
    const pushes = client.drain<{ count?: number }>().filter((line) => line.count !== undefined).length;
    console.log(
      `phase with ${on.name} subscribed: ${[...cpu].map(([name, s]) => `${name} ${s.toFixed(2)} s`).join(', ')}; device ${device.toFixed(2)} s; ${pushes} pushes (load ${load()})`,
    );
    return { subscribed: on.name, cpu, rss, device, pushes, seconds };
  } finally {
    await client.stop();
  }
}

async function main(): Promise<void> {
  const bench = await startStateBench('mch-state-idle-bench-');
  const served: Served[] = [];
  try {
    for (const name of ['A', 'B']) {
      const folder = join(bench.work, 'home', `Idle-${name}`);
      writeTree(folder, { files: FILES, folders: FOLDERS, topFolders: 1, size: (index) => index % 64 });
      await syncOnce(bench, folder, `/state-idle-${name}`);
    }
    for (const name of ['A', 'B']) {
      const folder = join(bench.work, 'home', `Idle-${name}`);
      served.push({ name, live: await startLiveChild(bench.profile, folder, `/state-idle-${name}`) });
    }
    // The passes that follow a start (and their share asks) are over before anything is measured.
    await sleep(5_000);
    const devicePid = findPid(join(bench.work, 'device'));
    const [a, b] = served as [Served, Served];
    const phases: Phase[] = [];
    for (let index = 0; index < PHASES; index += 1) {
      phases.push(await phase(bench.work, index % 2 === 0 ? a : b, served, devicePid));
    }

    let subscribed = 0;
    let unsubscribed = 0;
    console.log(
      `\nIdle CPU of two \`mch-sync run\` services, ${FILES} files in ${FOLDERS} folders each, ${SECONDS} s windows (load ${load()})`,
    );
    console.log('| window | service | python client | CPU (s) | CPU % | RSS end (MB) | pushes read |');
    console.log('|---|---|---|---:|---:|---:|---:|');
    phases.forEach((measured, index) => {
      for (const { name } of served) {
        const cpu = measured.cpu.get(name) ?? 0;
        const on = measured.subscribed === name;
        if (on) subscribed += cpu;
        else unsubscribed += cpu;
        console.log(
          `| ${index + 1} | ${name} | ${on ? 'subscribed' : 'none'} | ${cpu.toFixed(2)} | ${((100 * cpu) / measured.seconds).toFixed(2)} | ${(measured.rss.get(name) ?? 0).toFixed(0)} | ${on ? measured.pushes : ''} |`,
        );
      }
    });
    const ratio = unsubscribed > 0 ? subscribed / unsubscribed : Number.NaN;
    console.log(
      `| both | subscribed / none | | ${subscribed.toFixed(2)} / ${unsubscribed.toFixed(2)} | **${ratio.toFixed(2)}×** | | |`,
    );
    console.log(
      `device CPU in the windows: ${phases.map((p) => `${p.device.toFixed(2)} s`).join(', ')}; /proc counts CPU in 10 ms ticks`,
    );
    console.log(
      `goal, subscribed at most ${GOAL}× the CPU of none: ${ratio.toFixed(2)}× → ${ratio <= GOAL ? 'met' : 'NOT met'}`,
    );
  } finally {
    for (const { live } of served) await live.stop();
    await bench.close();
  }
}

await main();
