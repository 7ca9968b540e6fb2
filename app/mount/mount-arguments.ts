// The mount process's command line: --source C --mount M --socket S [--no-download-json '[...]'].
import { isAbsolute, resolve } from 'node:path';
import { MountError } from './mount-errors.ts';
import { DEFAULT_NO_DOWNLOAD, parseNoDownloadList, type NoDownloadPattern } from './no-download.ts';

export interface MountArguments {
  /** The cache folder, absolute. */
  readonly source: string;
  /** The mount point, absolute. */
  readonly mountPoint: string;
  /** The service's hydration socket. */
  readonly socket: string;
  readonly noDownload: readonly NoDownloadPattern[];
}

const FLAGS = ['--source', '--mount', '--socket', '--no-download-json'] as const;
type Flag = (typeof FLAGS)[number];

function bad(message: string): MountError {
  return new MountError('MOUNT_BAD_ARGUMENTS', message);
}

/** Reads the arguments (after the script's path); throws MOUNT_BAD_ARGUMENTS. */
export function parseMountArguments(argv: readonly string[]): MountArguments {
  const values = new Map<Flag, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i] as Flag;
    const value = argv[i + 1];
    if (!FLAGS.includes(flag)) throw bad(`Unknown argument ${argv[i]}.`);
    if (value === undefined) throw bad(`${flag} needs a value.`);
    if (values.has(flag)) throw bad(`${flag} is given twice.`);
    values.set(flag, value);
  }
  const path = (flag: Flag): string => {
    const value = values.get(flag);
    if (value === undefined || value === '') throw bad(`${flag} is required.`);
    if (!isAbsolute(value)) throw bad(`${flag} must be an absolute path: ${value}`);
    return resolve(value);
  };
  const json = values.get('--no-download-json');
  const noDownload = json === undefined ? DEFAULT_NO_DOWNLOAD : parseNoDownloadList(json);
  if (noDownload === undefined) {
    throw bad('--no-download-json must be a JSON array of process names or patterns.');
  }
  const source = path('--source');
  const mountPoint = path('--mount');
  if (source === mountPoint || source.startsWith(`${mountPoint}/`) || mountPoint.startsWith(`${source}/`)) {
    throw bad('The cache folder and the mount point must not contain each other.');
  }
  return { source, mountPoint, socket: path('--socket'), noDownload };
}

/** The command line for these arguments (what the service passes after `node mount-process.ts`). */
export function mountArgumentList(args: MountArguments): string[] {
  return [
    '--source',
    args.source,
    '--mount',
    args.mountPoint,
    '--socket',
    args.socket,
    '--no-download-json',
    JSON.stringify(args.noDownload),
  ];
}
