-- The device's first schema: users, the device record, items, permissions, identity state.

CREATE TABLE device (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  model_id      TEXT NOT NULL,
  serial_number TEXT NOT NULL,
  created_on    INTEGER NOT NULL
) STRICT;

CREATE TABLE users (
  id            TEXT PRIMARY KEY,             -- auth0|<24 hex>
  name          TEXT NOT NULL UNIQUE,
  email         TEXT NOT NULL,
  password_hash TEXT NOT NULL,                -- scrypt$N$r$p$salt$hash
  root_id       TEXT NOT NULL,
  created_on    INTEGER NOT NULL
) STRICT;

-- Files and folders. A row in state 'uploading' is an unfinished resumable upload (invisible);
-- 'deleting' rows belong to a folder delete that is being finished in the background.
CREATE TABLE items (
  id          TEXT PRIMARY KEY,
  owner_id    TEXT NOT NULL REFERENCES users(id),
  parent_id   TEXT,                            -- NULL only for a user's root; kept consistent by the device, not a foreign key, so a
                                               -- large folder delete can remove rows in any order
  name        TEXT NOT NULL,
  is_dir      INTEGER NOT NULL,
  mime_type   TEXT NOT NULL,
  size        INTEGER NOT NULL DEFAULT 0,
  m_time      INTEGER NOT NULL,                -- milliseconds since the epoch
  c_time      INTEGER NOT NULL,
  hidden      TEXT NOT NULL DEFAULT 'none',
  etag        TEXT NOT NULL,                   -- quoted
  list_tag    TEXT NOT NULL DEFAULT '',        -- folders: changes whenever any direct child changes
  blob        TEXT,                            -- content file name under content/, NULL for folders and empty files
  image       TEXT,                            -- JSON image object, for image content
  state       TEXT NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'uploading', 'deleting')),
  updated_at  INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX items_live_name ON items(parent_id, name) WHERE state = 'live';
CREATE INDEX items_parent_mtime ON items(parent_id, m_time) WHERE state = 'live';
CREATE INDEX items_parent_size ON items(parent_id, size) WHERE state = 'live';
CREATE INDEX items_state ON items(state) WHERE state <> 'live';

-- Unfinished resumable uploads (items in state 'uploading'); their bytes are under uploads/<item_id>.
CREATE TABLE resumable_uploads (
  item_id          TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
  resolve_conflict INTEGER NOT NULL,
  created_on       INTEGER NOT NULL
) STRICT;

-- device-api.md §3 "File permissions". The owner holds FileOwner on their root.
CREATE TABLE file_perms (
  id          TEXT PRIMARY KEY,
  file_id     TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  entity_id   TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  value       TEXT NOT NULL,
  created_on  INTEGER NOT NULL,
  UNIQUE (file_id, entity_id, entity_type, value)
) STRICT;
CREATE INDEX file_perms_entity ON file_perms(entity_id, entity_type);

-- Refresh tokens are stored as SHA-256 hashes, never in plain text.
CREATE TABLE refresh_tokens (
  token_hash  TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id),
  client_id   TEXT NOT NULL,
  scope       TEXT NOT NULL,
  created_on  INTEGER NOT NULL,
  revoked_on  INTEGER
) STRICT;

-- One-time authorization codes of the code + PKCE flow, also stored hashed.
CREATE TABLE auth_codes (
  code_hash      TEXT PRIMARY KEY,
  user_id        TEXT NOT NULL REFERENCES users(id),
  client_id      TEXT NOT NULL,
  redirect_uri   TEXT NOT NULL,
  scope          TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at     INTEGER NOT NULL
) STRICT;
