-- Text search and media-time search (device-api.md §3 "Listing and search"); see device/search/.

-- Items whose searched strings (name, mimeType, image strings) may have changed since they were last
-- indexed. SQLite cannot fold text as search matches it (NFC, Unicode lower case, grapheme clusters), so
-- these triggers only queue ids; device/search/indexer.ts computes the tokens and applies the queue
-- before every search, so no search misses a committed change.
CREATE TABLE search_queue (
  seq     INTEGER PRIMARY KEY AUTOINCREMENT,
  item_id TEXT NOT NULL UNIQUE
) STRICT;

-- The doc number of each searchable item (live, below a root): the rowid of its tokens in
-- search_grams and its place in the order of results. Kept while the item stays searchable.
CREATE TABLE search_docs (
  doc     INTEGER PRIMARY KEY AUTOINCREMENT,
  item_id TEXT NOT NULL UNIQUE
) STRICT;

-- One row per doc: the 1-, 2- and 3-code-point grams of the folded name (prefix n) and other searched
-- strings (prefix m), as hex tokens (device/search/grams.ts). Only which docs hold a token is stored:
-- no copy of the text, no positions.
CREATE VIRTUAL TABLE search_grams USING fts5(
  grams, content = '', contentless_delete = 1, detail = 'none', tokenize = 'ascii'
);

CREATE TRIGGER search_item_inserted AFTER INSERT ON items
  WHEN new.state = 'live' AND new.parent_id IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO search_queue (item_id) VALUES (new.id);
END;

-- Tag and listing bumps of folders change none of these columns and queue nothing.
CREATE TRIGGER search_item_updated AFTER UPDATE ON items
  WHEN new.name IS NOT old.name OR new.mime_type IS NOT old.mime_type OR new.image IS NOT old.image
    OR new.state IS NOT old.state OR (new.parent_id IS NULL) IS NOT (old.parent_id IS NULL)
BEGIN
  INSERT OR IGNORE INTO search_queue (item_id) VALUES (new.id);
END;

-- Rows of a folder delete are 'deleting' (and queued) before the deleter removes them.
CREATE TRIGGER search_item_deleted AFTER DELETE ON items
  WHEN old.state = 'live'
BEGIN
  INSERT OR IGNORE INTO search_queue (item_id) VALUES (old.id);
END;

-- Items that exist already are indexed too, oldest first so their doc numbers follow their age.
INSERT INTO search_queue (item_id)
  SELECT id FROM items WHERE state = 'live' AND parent_id IS NOT NULL ORDER BY rowid;

-- Media time: the image date (EXIF local time, read as UTC) else mTime, in milliseconds. The same
-- expression is MEDIA_TIME_SQL in device/search/media-search.ts (SQLite uses the index only for it).
CREATE INDEX items_media_time ON items (
  coalesce(
    CASE WHEN json_valid(image) AND json_type(image, '$.date') = 'text'
      THEN unixepoch(replace(substr(json_extract(image, '$.date'), 1, 10), ':', '-') || 'T'
        || substr(json_extract(image, '$.date'), 12)) * 1000
    END,
    m_time),
  id
) WHERE state = 'live' AND is_dir = 0 AND (mime_type LIKE 'image/%' OR mime_type LIKE 'video/%');
