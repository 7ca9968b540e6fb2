// Opens the device's SQLite database and brings its schema up to date from the numbered .sql files.
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Db = Database.Database;

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

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

/** Opens (creating if needed) the database at `path` in WAL mode and applies pending migrations. */
export function openDatabase(path: string): Db {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only a power loss may drop the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const migration of listMigrations()) {
    if (migration.version <= current) continue;
    const sql = readFileSync(join(migrationsDir, migration.file), 'utf8');
    // The number of the file becomes user_version in the same transaction, so a crash never half-applies one.
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
}
