-- Writes a server's changed state, tagged with the version of the batch that produced it (or, for
-- a rebuild, the version the rebuild read). A player's value is "<version>|<member>|<totals json>":
-- the write of a player is skipped when the stored version is as new or newer, so a late or
-- replayed write never undoes a newer one, and the previous ranking member is taken from what is
-- stored, so a player can never be listed twice whatever was written before.
-- The meta hash holds w (every version up to w is applied), sv (version of the status record) and
-- r (the token of the rebuild under way); the applied set holds versions above w that arrived early.
-- A rebuild's writes carry its token and are refused once another rebuild took over or the state
-- was lost meanwhile (a flush, a restart): a rebuild never marks a partial state complete.
-- Each command is sent once for all players (a batch names up to a thousand): a call from Lua
-- costs more than the work it carries. All removals precede all additions; a member names its
-- player, so one player's removal never meets another's addition.
-- KEYS: players, lb:kills, lb:kd, online, status, pages, gen, meta, applied (src/stats/ranking.ts)
-- ARGV[1]: version, ARGV[2]: mode = "batch" | "rebuild" | "rebuilt", ARGV[3]: token (rebuilds),
-- ARGV[4]: status json or "", ARGV[5]: ms before which online-window entries are stale and dropped,
-- ARGV[6]: a JSON array of 6 texts a player: platformId, kd-ranking member or "" (unranked),
-- totals json, kills-ranking score (exact), kd-ranking score, online ms or "" (offline) (one flat
-- array: it decodes faster than an array a player, and far faster than as many arguments, which
-- cost the client as much again)
-- Returns the new generation; -1 when the server's derived state is missing or being rebuilt (a
-- batch is left to the rebuild, which reads PostgreSQL), or when a rebuild is no longer current.
local version = tonumber(ARGV[1])
local mode = ARGV[2]
local rebuilding = mode ~= 'batch'
local p = cjson.decode(ARGV[6])
local width = 6

local w = redis.call('HGET', KEYS[8], 'w')
if rebuilding and redis.call('HGET', KEYS[8], 'r') ~= ARGV[3] then return -1 end
if not rebuilding then
  if redis.call('HEXISTS', KEYS[8], 'r') == 1 then return -1 end
  if w then
    w = tonumber(w)
  elseif version == 1 then
    w = 0 -- the first batch of a new server
  else
    return -1 -- the state was lost: the worker rebuilds it
  end
end

-- Runs a variadic command over a list of arguments, in chunks (Lua's unpack is bounded).
local function each(command, key, args, step)
  local size = 1000 * step
  for i = 1, #args, size do
    redis.call(command, key, unpack(args, i, math.min(i + size - 1, #args)))
  end
end

local ids = {}
for i = 1, #p, width do ids[#ids + 1] = p[i] end
local olds = {}
for i = 1, #ids, 1000 do
  local chunk = redis.call('HMGET', KEYS[1], unpack(ids, i, math.min(i + 999, #ids)))
  for j = 1, #chunk do olds[i + j - 1] = chunk[j] end
end

-- Counted appends and text kept as text: in a loop over a thousand players, '#t + 1' and turning
-- numbers into text (the version, scores) were a good part of the script's time.
local tag = ARGV[1] .. '|'
local values, stale, unranked, kills, kd, online, offline = {}, {}, {}, {}, {}, {}, {}
local nv, ns, nu, nk, nd, non, noff = 0, 0, 0, 0, 0, 0, 0
for n, platformId in ipairs(ids) do
  local i = 1 + (n - 1) * width
  local member = p[i + 1]
  local write = true
  local old = olds[n]
  if old then
    local a = string.find(old, '|', 1, true)
    local b = string.find(old, '|', a + 1, true)
    local oldVersion, oldMember = tonumber(string.sub(old, 1, a - 1)), string.sub(old, a + 1, b - 1)
    -- A batch needs a newer version than stored; a rebuild's own pages never meet a newer one,
    -- except a batch written after it began, which it must not undo.
    if (not rebuilding and oldVersion >= version) or (rebuilding and oldVersion > version) then
      write = false
    elseif oldMember ~= '' and oldMember ~= member then
      ns = ns + 1; stale[ns] = oldMember
      if member == '' then nu = nu + 1; unranked[nu] = platformId end
    end
  end
  if write then
    values[nv + 1] = platformId
    values[nv + 2] = tag .. member .. '|' .. p[i + 2]
    nv = nv + 2
    if member ~= '' then
      kills[nk + 1] = p[i + 3]; kills[nk + 2] = platformId; nk = nk + 2
      kd[nd + 1] = p[i + 4]; kd[nd + 2] = member; nd = nd + 2
    end
    if p[i + 5] ~= '' then
      online[non + 1] = p[i + 5]; online[non + 2] = platformId; non = non + 2
    else
      noff = noff + 1; offline[noff] = platformId
    end
  end
end

each('ZREM', KEYS[2], unranked, 1)
each('ZREM', KEYS[3], stale, 1)
each('ZREM', KEYS[4], offline, 1)
each('HSET', KEYS[1], values, 2)
each('ZADD', KEYS[2], kills, 2)
each('ZADD', KEYS[3], kd, 2)
each('ZADD', KEYS[4], online, 2)
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. ARGV[5])

if mode == 'rebuilt' then
  redis.call('DEL', KEYS[9])
  redis.call('HSET', KEYS[8], 'w', version)
  redis.call('HDEL', KEYS[8], 'r')
elseif mode == 'batch' then
  if version > w then
    redis.call('SADD', KEYS[9], version)
    while redis.call('SREM', KEYS[9], w + 1) == 1 do w = w + 1 end
    redis.call('HSET', KEYS[8], 'w', w)
  end
end
if ARGV[4] ~= '' then
  local sv = tonumber(redis.call('HGET', KEYS[8], 'sv') or '-1')
  if rebuilding or version > sv then
    redis.call('SET', KEYS[5], ARGV[4])
    redis.call('HSET', KEYS[8], 'sv', version)
  end
end
redis.call('DEL', KEYS[6])
return redis.call('INCR', KEYS[7])
