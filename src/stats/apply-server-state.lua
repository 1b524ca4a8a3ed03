-- Writes a server's changed state, tagged with the version of the batch that produced it (or, for
-- a rebuild, the version the rebuild read). A player's value is "<version>|<member>|<totals json>":
-- the write of a player is skipped when the stored version is as new or newer, so a late or
-- replayed write never undoes a newer one, and the previous ranking member is taken from what is
-- stored, so a player can never be listed twice whatever was written before.
-- The meta hash holds w (every version up to w is applied), sv (version of the status record) and
-- r (the token of the rebuild under way); the applied set holds versions above w that arrived early.
-- A rebuild's writes carry its token and are refused once another rebuild took over or the state
-- was lost meanwhile (a flush, a restart): a rebuild never marks a partial state complete.
-- KEYS: players, lb:points, lb:kd, lb:kills, online, status, pages, gen, meta, applied
-- ARGV[1]: JSON { version, mode = "batch" | "rebuild" | "rebuilt", token (rebuilds),
--                 players = [[platformId, member|"", totals json, points, kd, kills, online ms|-1]],
--                 status = json|"" }
-- ARGV[2]: ms before which online-window entries are stale and dropped
-- Returns the new generation; -1 when the server's derived state is missing or being rebuilt (a
-- batch is left to the rebuild, which reads PostgreSQL), or when a rebuild is no longer current.
local p = cjson.decode(ARGV[1])
local version = tonumber(p.version)
local rebuilding = p.mode ~= 'batch'

local w = redis.call('HGET', KEYS[9], 'w')
if rebuilding and redis.call('HGET', KEYS[9], 'r') ~= p.token then return -1 end
if not rebuilding then
  if redis.call('HEXISTS', KEYS[9], 'r') == 1 then return -1 end
  if w then
    w = tonumber(w)
  elseif version == 1 then
    w = 0 -- the first batch of a new server
  else
    return -1 -- the state was lost: the worker rebuilds it
  end
end

for _, e in ipairs(p.players) do
  local platformId, member = e[1], e[2]
  local old = redis.call('HGET', KEYS[1], platformId)
  local write = true
  if old then
    local oldVersion, oldMember = string.match(old, '^(%d+)|([^|]*)|')
    -- A batch needs a newer version than stored; a rebuild's own pages never meet a newer one,
    -- except a batch written after it began, which it must not undo.
    if (not rebuilding and tonumber(oldVersion) >= version) or (rebuilding and tonumber(oldVersion) > version) then
      write = false
    elseif oldMember ~= '' and oldMember ~= member then
      redis.call('ZREM', KEYS[2], oldMember)
      redis.call('ZREM', KEYS[3], oldMember)
      redis.call('ZREM', KEYS[4], oldMember)
    end
  end
  if write then
    redis.call('HSET', KEYS[1], platformId, version .. '|' .. member .. '|' .. e[3])
    if member ~= '' then
      redis.call('ZADD', KEYS[2], e[4], member)
      redis.call('ZADD', KEYS[3], e[5], member)
      redis.call('ZADD', KEYS[4], e[6], member)
    end
    if e[7] >= 0 then redis.call('ZADD', KEYS[5], e[7], platformId) else redis.call('ZREM', KEYS[5], platformId) end
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', '(' .. ARGV[2])

if p.mode == 'rebuilt' then
  redis.call('DEL', KEYS[10])
  redis.call('HSET', KEYS[9], 'w', version)
  redis.call('HDEL', KEYS[9], 'r')
elseif p.mode == 'batch' then
  if version > w then
    redis.call('SADD', KEYS[10], version)
    while redis.call('SREM', KEYS[10], w + 1) == 1 do w = w + 1 end
    redis.call('HSET', KEYS[9], 'w', w)
  end
end
if p.status ~= '' then
  local sv = tonumber(redis.call('HGET', KEYS[9], 'sv') or '-1')
  if rebuilding or version > sv then
    redis.call('SET', KEYS[6], p.status)
    redis.call('HSET', KEYS[9], 'sv', version)
  end
end
redis.call('DEL', KEYS[7])
return redis.call('INCR', KEYS[8])
