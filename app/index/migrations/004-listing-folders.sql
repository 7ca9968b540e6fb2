-- Listings keep their subfolders apart from the rest of their children, so a walk that gets a 304 for
-- an unchanged folder learns where to go next without decoding every file in it (a pass with nothing
-- changed never reads the files' part). The table is only a cache: it starts empty again, and the
-- next walk lists every folder once.
DROP TABLE listings;

CREATE TABLE listings (
  folder_id TEXT PRIMARY KEY,
  etag      TEXT NOT NULL,
  -- The listing ETag depends on the page size; 0 is the device's default.
  page_size INTEGER NOT NULL,
  -- The subfolders as JSON, before the children so that reading it never walks past them.
  folders   TEXT NOT NULL,
  -- All the children as JSON, in the form app/sync/listing-cache.ts writes and reads.
  children  TEXT NOT NULL
) STRICT;
