-- Up Migration

-- Every stored Steam64 carries its DayZ ID and BattlEye GUID beside it, indexed, so an
-- id in any of the three forms finds the player. Both are one-way hashes of the Steam64.
ALTER TABLE players ADD COLUMN dayz_id text, ADD COLUMN be_guid text;

UPDATE players SET
  dayz_id = translate(encode(sha256(convert_to(platform_id, 'UTF8')), 'base64'), '+/', '-_'),
  be_guid = md5(decode('4245' || (
    SELECT string_agg(substr(h.hex, 15 - 2 * i, 2), '' ORDER BY i)
    FROM (SELECT lpad(to_hex(platform_id::int8), 16, '0') AS hex) h, generate_series(0, 7) i
  ), 'hex'))
WHERE platform_id ~ '^[0-9]{17}$' AND platform_id::numeric BETWEEN 76561197960265728 AND 76561202255233023;

CREATE UNIQUE INDEX players_dayz_id_idx ON players (dayz_id) WHERE dayz_id IS NOT NULL;
CREATE UNIQUE INDEX players_be_guid_idx ON players (be_guid) WHERE be_guid IS NOT NULL;

-- Down Migration

DROP INDEX players_be_guid_idx, players_dayz_id_idx;
ALTER TABLE players DROP COLUMN dayz_id, DROP COLUMN be_guid;
