-- Up Migration

-- The Data API's ban list reads a server's file newest in it first, then newest ban: with the ban's
-- time kept on its entry (a ban's banned_at never changes), an index in that order lets a page of
-- 100 read 100 entries instead of sorting all of them (a community of 50,000 bans: 72 ms a page).
ALTER TABLE ban_file_entries ADD COLUMN banned_at timestamptz;
UPDATE ban_file_entries e SET banned_at = b.banned_at FROM bans b WHERE b.id = e.ban_id;
ALTER TABLE ban_file_entries ALTER COLUMN banned_at SET NOT NULL;
CREATE INDEX ban_file_entries_list_idx ON ban_file_entries (account_id, added_at DESC, banned_at DESC, ban_id);

-- Down Migration

DROP INDEX ban_file_entries_list_idx;
ALTER TABLE ban_file_entries DROP COLUMN banned_at;
