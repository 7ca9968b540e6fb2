// After `tsc -b`: copies what the compiler does not (the SQL migrations) next to the compiled modules.
import { cpSync } from 'node:fs';

cpSync('device/db/migrations', 'dist/device/db/migrations', { recursive: true });
cpSync('app/index/migrations', 'dist/app/index/migrations', { recursive: true });
console.log('copied device/db/migrations and app/index/migrations to dist/');
