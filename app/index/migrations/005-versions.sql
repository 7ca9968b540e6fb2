-- Versions: content this client replaced or removed on this computer (a newer version downloaded over
-- a file, a device delete, a conflict settled, a restore), kept in `<root>/.mch-sync/versions/` so it
-- can be restored. One row per kept file; a folder deleted on the device keeps one row per file in it.
CREATE TABLE versions (
  id           INTEGER PRIMARY KEY,
  -- Where the content was, relative to the sync root, '/'-separated: what `versions PATH` looks up.
  path         TEXT NOT NULL,
  -- Where it is now, relative to the versions folder: `<keep id>` or `<keep id>/<path inside a folder>`.
  blob         TEXT NOT NULL,
  reason       TEXT NOT NULL CHECK (reason IN ('replaced', 'deleted', 'conflict', 'restored')),
  size         INTEGER NOT NULL,
  m_time_ms    INTEGER NOT NULL,
  kept_at_ms   INTEGER NOT NULL,
  -- 'pending' from just before the content moves into the store until it is there: after a crash,
  -- recovery looks at the store and the folder to learn which way it went (app/versions/).
  state        TEXT NOT NULL CHECK (state IN ('pending', 'kept')),
  -- The content's inode when it was kept: a link made before a replace that never happened is the
  -- file still in place, not a version.
  inode        TEXT,
  remote_id    TEXT,
  content_hash TEXT
) STRICT;

CREATE INDEX versions_by_path ON versions (path, kept_at_ms);
CREATE INDEX versions_by_time ON versions (kept_at_ms);

-- Conflicts: the conflicted copies this pair knows, and which were settled by keeping both. A copy
-- that is gone, or whose original is gone, is no longer a conflict; one made on another computer is
-- recognised by its name and gets a row when it is settled.
CREATE TABLE conflicts (
  copy_path     TEXT PRIMARY KEY,
  original_path TEXT NOT NULL,
  made_at_ms    INTEGER NOT NULL,
  -- 1 when this computer made the copy: its content is this computer's, the original the device's.
  made_here     INTEGER NOT NULL,
  -- NULL while it waits for the user (or the pair's policy); 'both' once both were kept on purpose.
  settled       TEXT CHECK (settled IS NULL OR settled = 'both')
) STRICT;
