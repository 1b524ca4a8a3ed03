-- Players seen since a time, most recent first, with their totals (for the name).
-- KEYS: online, players   ARGV: min ms
-- Returns { platformId1, totals1, platformId2, totals2, ... }
local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', ARGV[1])
if #ids == 0 then return {} end
local out = {}
for i = 1, #ids, 1000 do
  local chunk = { unpack(ids, i, math.min(i + 999, #ids)) }
  local totals = redis.call('HMGET', KEYS[2], unpack(chunk))
  for j, id in ipairs(chunk) do
    out[#out + 1] = id
    out[#out + 1] = totals[j] or '{}'
  end
end
return out
