// Opens a sync index (SQLite in the profile folder) and brings its schema up to date from numbered .sql files.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MchError } from '../../common/errors.ts';
import { appFile } from '../app-files.ts';

export type IndexDb = Database.Database;

const migrationsDir = appFile('index/migrations');

/** The index could not be opened or is newer than this client. */
export class IndexOpenError extends MchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INDEX_UNAVAILABLE', 'Sync index unavailable', message, options);
  }
}

interface Migration {
  version: number;
  file: string;
}

function listMigrations(): Migration[] {
  return readdirSync(migrationsDir)
    .filter((file) => /^\d{3}-[a-z0-9-]+\.sql$/.test(file))
    .map((file) => ({ version: Number.parseInt(file.slice(0, 3), 10), file }))
    .sort((a, b) => a.version - b.version);
}

/** The newest schema version this client knows. */
export function latestIndexVersion(): number {
  return listMigrations().at(-1)?.version ?? 0;
}

/**
 * Where the index of one local folder lives: `<profile>/index/<hash of the absolute folder>.db`, so
 * that two synced folders of one profile never share rows.
 */
export function indexFilePath(profileDir: string, localRoot: string): string {
  return join(profileDir, 'index', `${folderKey(localRoot)}.db`);
}

/** The key of a local folder in the profile: the first 16 hex digits of the SHA-256 of its absolute path. */
export function folderKey(localRoot: string): string {
  return createHash('sha256').update(resolve(localRoot)).digest('hex').slice(0, 16);
}

/** Opens (creating if needed) the index at `path` in WAL mode and applies pending migrations. */
export function openIndexDb(path: string): IndexDb {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let db: IndexDb;
  try {
    db = new Database(path);
  } catch (error) {
    throw new IndexOpenError(`Could not open the sync index ${path}; check the profile folder.`, {
      cause: error,
    });
  }
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across application crashes in WAL mode; a power loss may drop the last commits,
    // which the next pass re-derives from both sides (the index only saves work and records intent).
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function migrate(db: IndexDb, path: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const migrations = listMigrations();
  const latest = migrations.at(-1)?.version ?? 0;
  // A newer client wrote this schema; reading it with older code could lose what it added.
  if (current > latest) {
    throw new IndexOpenError(
      `The sync index ${path} is version ${current}, newer than this client knows (${latest}); update mch-sync.`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    const sql = readFileSync(join(migrationsDir, migration.file), 'utf8');
    // The file's number becomes user_version in the same transaction, so a crash never half-applies one.
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
