-- The names players are seen under on each server (player_names), kept as the server's totals
-- (server_players) take them: a row made with a name, or a row renamed. Every writer of the totals
-- (ingestion, merges) is covered, and a batch that names players as before calls nothing.
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a migration that drops the old one first.

-- The name left behind was last seen at its last naming event (the old name_at); the new one is
-- first seen at the newest event of the batch that named the player so.
CREATE OR REPLACE FUNCTION server_players_name_seen() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seen timestamptz := coalesce(NEW.name_at, NEW.presence_at, now());
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.name IS NOT NULL AND OLD.name_at IS NOT NULL THEN
    UPDATE player_names SET last_seen_at = greatest(last_seen_at, OLD.name_at)
      WHERE server_id = OLD.server_id AND platform_id = OLD.platform_id AND name = OLD.name;
  END IF;
  INSERT INTO player_names AS n (server_id, platform_id, name, first_seen_at, last_seen_at)
    VALUES (NEW.server_id, NEW.platform_id, NEW.name, seen, seen)
    ON CONFLICT (server_id, platform_id, name) DO UPDATE SET
      first_seen_at = least(n.first_seen_at, excluded.first_seen_at), last_seen_at = greatest(n.last_seen_at, excluded.last_seen_at);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER server_players_named AFTER INSERT ON server_players
  FOR EACH ROW WHEN (NEW.name IS NOT NULL) EXECUTE FUNCTION server_players_name_seen();

-- The condition is checked without calling the function: an update that keeps the name costs nothing more.
CREATE OR REPLACE TRIGGER server_players_renamed AFTER UPDATE OF name ON server_players
  FOR EACH ROW WHEN (NEW.name IS NOT NULL AND NEW.name IS DISTINCT FROM OLD.name) EXECUTE FUNCTION server_players_name_seen();
