-- One digest per synced folder of what the index says its children are on disk (name, kind, inode,
-- and a file's size and mtime), so a pass finds unchanged folders from its scan without reading their
-- rows. Written by the engine after a pass that left both sides matching. The triggers delete a
-- folder's digest whenever a row under it changes, so a digest that exists always describes the rows
-- as they are now: no code path that writes items can forget it.
CREATE TABLE folder_digests (
  -- The folder's remote id; the synced remote folder's own id for the top-level items.
  folder_id TEXT PRIMARY KEY,
  digest    TEXT NOT NULL
) STRICT;

CREATE TRIGGER folder_digests_on_insert AFTER INSERT ON items BEGIN
  DELETE FROM folder_digests WHERE folder_id = NEW.parent_remote_id;
END;

-- A deleted folder takes its own digest along.
CREATE TRIGGER folder_digests_on_delete AFTER DELETE ON items BEGIN
  DELETE FROM folder_digests WHERE folder_id IN (OLD.parent_remote_id, OLD.remote_id);
END;

-- Only a change of what a digest holds: an upsert sets every column, most of them to what they were.
-- The path, for the name on disk it ends with (a subtree move also rewrites the paths below it, which
-- costs those folders their digests: the next settled pass writes them again).
CREATE TRIGGER folder_digests_on_update AFTER UPDATE ON items
WHEN OLD.parent_remote_id IS NOT NEW.parent_remote_id OR OLD.path IS NOT NEW.path
  OR OLD.kind IS NOT NEW.kind OR OLD.inode IS NOT NEW.inode OR OLD.local_size IS NOT NEW.local_size
  OR OLD.local_mtime_ns IS NOT NEW.local_mtime_ns
BEGIN
  DELETE FROM folder_digests WHERE folder_id IN (OLD.parent_remote_id, NEW.parent_remote_id);
END;

-- Folder rows alone (about 1 in 100 items): their paths and ids without reading every row.
CREATE INDEX items_folders ON items (path, remote_id) WHERE kind = 'folder';
