// `npm run demo`: starts the local device (user demo/demo, data in .demo/), signs in and syncs ./MyCloud live (`--on-demand`: files on demand).
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../app/cli/main.ts';
import { systemBrowser } from '../app/auth/system-browser.ts';
import { parseCliArgs, runDevice, UsageError } from '../device/cli.ts';
import { writeDemoContent } from './demo-content.ts';

async function demo(): Promise<number> {
  // `--on-demand` is the demo's own; the other options are mch-device's.
  const onDemand = process.argv.includes('--on-demand');
  let options;
  try {
    options = parseCliArgs([
      '--data',
      resolve('.demo/device'),
      '--user',
      'demo:demo',
      ...process.argv.slice(2).filter((arg) => arg !== '--on-demand'),
    ]);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`demo: ${error.message} (it takes the options of mch-device)`);
      return 2;
    }
    throw error;
  }
  let device;
  try {
    device = await runDevice(options, (line) => console.log(line));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(
      code === 'EADDRINUSE'
        ? `demo: port ${options.port} is in use (is a demo already running?). Try: npm run demo -- --port 0`
        : `demo: the device could not start: ${(error as Error).message}`,
    );
    return 1;
  }
  const { base, config, identity } = device.urls;
  const profile = resolve('.demo/profile');
  const folder = resolve('MyCloud');
  // The first run fills a new MyCloud with sample documents and photos, so every view has something.
  // On demand, they go to the device first (through a folder synced once and forgotten), so that
  // MyCloud starts with every file online only.
  const seed = resolve('.demo/seed');
  const seeding = onDemand && !existsSync(folder) && (writeDemoContent(seed) || existsSync(seed));
  if (!onDemand && writeDemoContent(folder))
    console.log(`demo: sample documents and photos written to ${folder}`);
  mkdirSync(folder, { recursive: true });
  // The demo keeps its tokens in a 0600 file of its own profile, never in the keychain of this machine.
  const env = { ...process.env, MCH_SECRET_STORE: 'file' };
  const stop = new AbortController();
  const onStop = (): void => stop.abort();
  process.once('SIGINT', onStop);
  process.once('SIGTERM', onStop);
  const cli = (args: string[], input = ''): Promise<number> =>
    runCli(['--profile', profile, ...args], {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      stdin: Readable.from([input]),
      env,
      openBrowser: systemBrowser(),
      terminal: process.stdout.isTTY ? process.stdout : undefined,
      signal: stop.signal,
    });
  let code = await cli(['login', '--config-url', config, '--username', 'demo', '--password-stdin'], 'demo');
  if (code === 0 && seeding) code = await seedDevice(cli, seed);
  if (code === 0) {
    console.log(`
The local device is running at ${base} (user demo, password demo; data in ${options.dataDir}).
${folder} is synced live with /MyCloud on it: add, edit, rename or delete files there.
The app's window opens in your browser (the address is printed below; it holds a secret of this run).

  See it from another computer: in a second terminal, sync a second folder with the same device folder
    npm run sync -- --profile .demo/second login --config-url ${config} --username demo --password-stdin <<< demo
    mkdir -p .demo/second-computer
    npm run sync -- --profile .demo/second run --folder .demo/second-computer --remote-folder /MyCloud
  and change files on either side: they arrive on the other within about a second (from the device,
  at the next poll: 30 s, or at once with \`npm run sync -- --profile .demo/profile resume --folder MyCloud\`).
  Status from anywhere:  npm run sync -- --profile .demo/profile status --folder MyCloud
  The device API by hand: curl ${config}, a token from ${identity}/oauth/token (see docs/device.md).

Press Ctrl+C to stop; the data stays in .demo/ and ${folder}.
`);
    if (onDemand) {
      console.log(`  On demand: ${folder} shows every file of /MyCloud; a file downloads when it is opened.
  Keep one here:   npm run sync -- --profile .demo/profile pin MyCloud/Photos
  Free its room:   npm run sync -- --profile .demo/profile free MyCloud/Photos
  What is here:    npm run sync -- --profile .demo/profile status --folder MyCloud
`);
    }
    code = await cli([
      'folders',
      'add',
      '--folder',
      folder,
      '--remote-folder',
      '/MyCloud',
      ...(onDemand ? ['--on-demand'] : []),
    ]);
    // The window in a browser (opened where there is a display); every folder pair syncs live meanwhile.
    if (code === 0) code = await cli(['ui']);
  }
  process.off('SIGINT', onStop);
  process.off('SIGTERM', onStop);
  await device.close();
  console.log('demo: stopped');
  return code;
}

/** The sample content sent to /MyCloud by one pass of a folder paired for that alone, then forgotten. */
async function seedDevice(cli: (args: string[]) => Promise<number>, seed: string): Promise<number> {
  let code = await cli(['folders', 'add', '--folder', seed, '--remote-folder', '/MyCloud']);
  if (code === 0) code = await cli(['run', '--once', '--folder', seed]);
  if (code === 0) code = await cli(['folders', 'remove', '--folder', seed]);
  if (code === 0) {
    rmSync(seed, { recursive: true, force: true });
    console.log('demo: sample documents and photos sent to /MyCloud on the device');
  }
  return code;
}

process.exitCode = await demo();
