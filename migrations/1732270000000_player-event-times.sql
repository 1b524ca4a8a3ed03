-- Up Migration

-- When a player's name and presence were last set, so a late, older event changes neither.
ALTER TABLE server_players ADD COLUMN name_at timestamptz, ADD COLUMN presence_at timestamptz;

-- Down Migration

ALTER TABLE server_players DROP COLUMN name_at, DROP COLUMN presence_at;
