-- The last full listing of each remote folder with its listing ETag, so a new process asks the device
-- with If-None-Match (a 304 per unchanged folder) instead of listing every folder again. It only saves
-- work: an answer other than 304 replaces the row.
CREATE TABLE listings (
  folder_id TEXT PRIMARY KEY,
  etag      TEXT NOT NULL,
  -- The listing ETag depends on the page size; 0 is the device's default.
  page_size INTEGER NOT NULL,
  -- The children as JSON, in the form app/sync/listing-cache.ts writes and reads.
  children  TEXT NOT NULL
) STRICT;
