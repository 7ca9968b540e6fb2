// Users of the device: each has a root folder on which they hold FileOwner (device-api.md §3).
import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { DIR_MIME_TYPE } from '../../common/wire/device-api.ts';
import type { Db } from '../db/database.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import type { ItemStore } from './items.ts';
import { newId } from './tags.ts';

export interface UserRow {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  root_id: string;
  created_on: number;
}

export class UserStore {
  readonly #db: Db;
  readonly #items: ItemStore;
  readonly #byId: Statement<[string], UserRow>;

  constructor(db: Db, items: ItemStore) {
    this.#db = db;
    this.#items = items;
    // Looked up on every authenticated request, so prepared once.
    this.#byId = db.prepare('SELECT * FROM users WHERE id = ?');
  }

  byId(id: string): UserRow | undefined {
    return this.#byId.get(id);
  }

  byName(name: string): UserRow | undefined {
    return this.#db.prepare<[string], UserRow>('SELECT * FROM users WHERE name = ?').get(name);
  }

  byEmail(email: string): UserRow | undefined {
    return this.#db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?').get(email);
  }

  count(): number {
    return (this.#db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  }

  /** The user's password if their name and password match, else undefined. */
  authenticate(name: string, password: string): UserRow | undefined {
    const user = this.byName(name);
    return user && verifyPassword(password, user.password_hash) ? user : undefined;
  }

  /**
   * Creates the user with a root folder and FileOwner on it, or sets the password of an existing one
   * (the command line is the administrator's word). Returns whether the user was created.
   */
  ensure(name: string, password: string, now: number): { user: UserRow; created: boolean } {
    const existing = this.byName(name);
    if (existing) {
      if (!verifyPassword(password, existing.password_hash)) {
        this.#db
          .prepare('UPDATE users SET password_hash = ? WHERE id = ?')
          .run(hashPassword(password), existing.id);
      }
      return { user: this.byName(name) ?? existing, created: false };
    }
    const user: UserRow = {
      id: `auth0|${randomBytes(12).toString('hex')}`,
      name,
      email: name,
      password_hash: hashPassword(password),
      root_id: newId(),
      created_on: now,
    };
    this.#db.transaction(() => {
      this.#db
        .prepare(
          `INSERT INTO users (id, name, email, password_hash, root_id, created_on)
           VALUES (@id, @name, @email, @password_hash, @root_id, @created_on)`,
        )
        .run(user);
      this.#items.insert(
        {
          id: user.root_id,
          owner_id: user.id,
          parent_id: null,
          name: '',
          is_dir: 1,
          mime_type: DIR_MIME_TYPE,
          size: 0,
          m_time: now,
          c_time: now,
          hidden: 'none',
          blob: null,
          image: null,
          state: 'live',
        },
        now,
      );
      this.#db
        .prepare(
          `INSERT INTO file_perms (id, file_id, entity_id, entity_type, value, created_on)
           VALUES (?, ?, ?, 'user', 'FileOwner', ?)`,
        )
        .run(newId(), user.root_id, user.id, now);
    })();
    return { user, created: true };
  }
}
