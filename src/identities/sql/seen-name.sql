-- The name a player last had on one of a community's servers, for lists that show an id the
-- community typed or a store sent (queue entries, pool entries, the audit log) beside a name.
-- The id is resolved as everywhere (a DayZ ID of a known Steam64, or a linked console id, is the
-- Steam64). Only the community's own servers: where else the network saw a player is not its to know.
-- Null when the player was never seen there.
-- Applied after every migrate (src/store/migrate.ts): CREATE OR REPLACE, so this file is the
-- function as it is now. A change of its arguments or result needs a DROP FUNCTION of the old one before it.
CREATE OR REPLACE FUNCTION seen_player_name(p_account_id uuid, p_id text)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT sp.name FROM servers s JOIN server_players sp ON sp.server_id = s.id
  WHERE s.account_id = p_account_id AND sp.name IS NOT NULL
    AND sp.platform_id = coalesce(
      (SELECT p.platform_id FROM players p WHERE p.dayz_id = p_id),
      (SELECT a.platform_id FROM player_aliases a WHERE a.alias_id = p_id),
      p_id)
  ORDER BY sp.name_at DESC NULLS LAST LIMIT 1
$$;
