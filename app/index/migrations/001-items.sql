-- The sync index: one row per synced item, the state both sides agreed on when it was last synced.
CREATE TABLE items (
  remote_id        TEXT PRIMARY KEY,
  parent_remote_id TEXT NOT NULL,
  -- Relative to the sync root, '/'-separated, as on disk; an attribute that changes (style.md §3).
  path             TEXT NOT NULL,
  name             TEXT NOT NULL,
  kind             TEXT NOT NULL CHECK (kind IN ('file', 'folder')),
  etag             TEXT NOT NULL,
  size             INTEGER NOT NULL,
  m_time_ms        INTEGER NOT NULL,
  -- A decimal string: 64-bit inode numbers do not fit a JS number.
  inode            TEXT,
  local_size       INTEGER,
  -- Nanoseconds since the epoch as a 64-bit integer, read back with safeIntegers so no digit is lost.
  local_mtime_ns   INTEGER,
  content_hash     TEXT
) STRICT;

-- Unique: two rows claiming one path is a broken invariant, caught by SQLite rather than by a pass.
-- Default BINARY collation, so the range `path >= 'a/' AND path < 'a0'` uses it for subtrees.
CREATE UNIQUE INDEX items_by_path ON items (path);
CREATE INDEX items_by_parent ON items (parent_remote_id);
CREATE INDEX items_by_inode ON items (inode) WHERE inode IS NOT NULL;

-- Remote changes in flight (style.md §5: intent recorded, effect done, index updated). A row left
-- here after a crash tells the next pass to ask the device what became of it.
CREATE TABLE intents (
  id               INTEGER PRIMARY KEY,
  action           TEXT NOT NULL,
  path             TEXT NOT NULL,
  remote_id        TEXT,
  parent_remote_id TEXT,
  -- Whatever the executor needs to recognise its own effect (name, size, content hash...), as JSON.
  detail           TEXT NOT NULL DEFAULT '{}',
  created_at_ms    INTEGER NOT NULL
) STRICT;

-- Small facts about the pair of folders this index belongs to (remote root id, local root...).
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
