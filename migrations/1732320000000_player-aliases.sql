-- Up Migration

-- Ids that were a player of their own and now resolve to a Steam64: a console id an
-- admin linked, or a DayZ ID merged into its Steam64 (kept here too, so the link survives even if
-- the Steam64's row is renamed). A DayZ ID of a known Steam64 also resolves through players.dayz_id.
CREATE TABLE player_aliases (
  alias_id text PRIMARY KEY,
  platform_id text NOT NULL REFERENCES players (platform_id),
  linked_at timestamptz NOT NULL
);
CREATE INDEX player_aliases_platform_idx ON player_aliases (platform_id);

-- Down Migration

DROP TABLE player_aliases;
