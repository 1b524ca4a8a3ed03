-- One leaderboard page in one round trip: ranking size, generation, the applied version (w, or
-- '' while the server's derived state is missing or being rebuilt), then the page's members with
-- their stored values.
-- KEYS: lb:<set>, players, gen, meta   ARGV: offset, limit, set ('kills': members are platform ids;
-- 'kd': the platform id, or "#" and the tie-breakers, 35 characters, before it: src/stats/ranking.ts)
-- Returns { total, generation, w|'', member1, value1, member2, value2, ... }
local offset = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local meta = redis.call('HMGET', KEYS[4], 'w', 'r')
local applied = meta[1]
if not applied or meta[2] then applied = '' end
local out = { redis.call('ZCARD', KEYS[1]), redis.call('GET', KEYS[3]) or '0', applied }
local members = redis.call('ZRANGE', KEYS[1], offset, offset + limit - 1)
if #members == 0 then return out end
local ids = {}
if ARGV[3] == 'kd' then
  for i, m in ipairs(members) do
    if string.byte(m, 1) == 35 then ids[i] = string.sub(m, 36) else ids[i] = m end
  end
else
  ids = members
end
local values = redis.call('HMGET', KEYS[2], unpack(ids))
for i, m in ipairs(members) do
  out[#out + 1] = ids[i]
  out[#out + 1] = values[i] or '0||{}'
end
return out
