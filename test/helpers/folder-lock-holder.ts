// Another `mch-sync run` for the folder lock tests: takes the lock given on the command line and holds it until killed.
import { acquireFolderLock } from '../../app/cli/folder-lock.ts';

const [path, folder] = process.argv.slice(2);
if (path === undefined || folder === undefined) throw new Error('usage: folder-lock-holder.ts LOCK FOLDER');
// The handle is dropped on purpose, and garbage collected when Node runs with --expose-gc: the lock must
// last until it is released or the process ends, whatever its caller keeps.
acquireFolderLock(path, { folder });
(globalThis as { gc?: () => void }).gc?.();
process.stdout.write(`locked ${process.pid}\n`);
setInterval(() => {}, 60_000);
