// `npm run demo`: starts the local device with a demo user and a data folder in .demo/, and says how to use it.
import { resolve } from 'node:path';
import { parseCliArgs, runDevice, UsageError } from '../device/cli.ts';

async function demo(): Promise<number> {
  let options;
  try {
    options = parseCliArgs([
      '--data',
      resolve('.demo/device'),
      '--user',
      'demo:demo',
      ...process.argv.slice(2),
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
  console.log(`
The local device is running. Sign in as demo / demo.

  Read the configuration:
    curl ${config}
  Get a token:
    curl -s ${identity}/oauth/token -H 'content-type: application/json' \\
      -d '{"grant_type":"password","client_id":"mch-desktop","username":"demo","password":"demo"}'
  List your root folder (put the access_token in TOKEN):
    curl -H "Authorization: Bearer $TOKEN" '${base}/sdk/v2/filesSearch/parents?ids=root&pretty=true'
  Sign in with the client, in another terminal:
    npm run sync -- login --config-url ${config}      (browser; or add --username demo --password-stdin)
    npm run sync -- whoami

Press Ctrl+C to stop; the data stays in ${options.dataDir}.`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await device.close();
  console.log('demo: stopped');
  return 0;
}

process.exitCode = await demo();
