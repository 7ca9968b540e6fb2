-- When each unfinished resumable upload last received bytes (or was started): one that has received
-- nothing for the configured age (mch-device --upload-ttl) is dropped, with its bytes (device-api.md §3).
ALTER TABLE resumable_uploads ADD COLUMN active_on INTEGER NOT NULL DEFAULT 0;
UPDATE resumable_uploads SET active_on = created_on;
