-- Link shares of the sharing service (device-api.md §4). file_perms (001) holds what a share may read.

CREATE TABLE shares (
  id            TEXT PRIMARY KEY,             -- shareId: 128 random bits, base64url; the link's credential
  auth_id       TEXT NOT NULL UNIQUE,         -- the cloudShare entity id granted ReadFile in file_perms
  owner_id      TEXT NOT NULL REFERENCES users(id),
  device_id     TEXT NOT NULL,
  metadata      TEXT,                         -- JSON object, NULL until set
  date_created  INTEGER NOT NULL,             -- milliseconds since the epoch
  last_modified INTEGER NOT NULL
) STRICT;
CREATE INDEX shares_owner ON shares(owner_id);

-- The items of a share, in the order the owner gave them. Not foreign keys to items: a share outlives
-- a deleted item, which then simply no longer shows.
CREATE TABLE share_files (
  share_id TEXT NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  file_id  TEXT NOT NULL,
  PRIMARY KEY (share_id, position)
) STRICT;
CREATE INDEX share_files_file ON share_files(file_id, share_id);
