// After `tsc -b`: copies what the compiler does not (the SQL migrations, the native addon) next to the compiled modules.
import { cpSync, existsSync } from 'node:fs';

cpSync('device/db/migrations', 'dist/device/db/migrations', { recursive: true });
cpSync('app/index/migrations', 'dist/app/index/migrations', { recursive: true });
console.log('copied device/db/migrations and app/index/migrations to dist/');
// Where npm install could build them (scripts/build-native.ts): the compiled scan falls back like the
// sources, and without the mount's addon (Linux only) on-demand folders say FUSE_UNAVAILABLE.
for (const addon of ['app/native/build/Release/mch_scan.node', 'app/native/build/Release/mch_fuse.node']) {
  if (existsSync(addon)) {
    cpSync(addon, `dist/${addon}`);
    console.log(`copied ${addon} to dist/`);
  }
}
