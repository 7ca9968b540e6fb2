// Another `mch-sync run` for the folder lock tests: takes the lock given on the command line and holds it until killed.
// `folder-lock-holder.ts LOCK FOLDER` takes one lock file; `folder-lock-holder.ts --synced PROFILE FOLDER`
// takes both locks of a synced folder, as `mch-sync run` does.
import { acquireFolderLock, lockSyncedFolder } from '../../app/profile/folder-lock.ts';

const [first, second, third] = process.argv.slice(2);
if (first === undefined || second === undefined || (first === '--synced' && third === undefined)) {
  throw new Error('usage: folder-lock-holder.ts LOCK FOLDER | --synced PROFILE FOLDER');
}
// The handle is dropped on purpose, and garbage collected when Node runs with --expose-gc: the lock must
// last until it is released or the process ends, whatever its caller keeps.
if (first === '--synced') lockSyncedFolder(second, third ?? '');
else acquireFolderLock(first, { folder: second, profile: '/holder-profile' });
(globalThis as { gc?: () => void }).gc?.();
process.stdout.write(`locked ${process.pid}\n`);
setInterval(() => {}, 60_000);
