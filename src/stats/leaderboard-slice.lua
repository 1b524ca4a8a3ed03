-- One leaderboard page in one round trip: ranking size, generation, then the page's members
-- with their totals.
-- KEYS: lb:<sort>, players, gen   ARGV: offset, limit
-- Returns { total, generation, member1, totals1, member2, totals2, ... }
local offset = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local out = { redis.call('ZCARD', KEYS[1]), redis.call('GET', KEYS[3]) or '0' }
local members = redis.call('ZRANGE', KEYS[1], offset, offset + limit - 1)
if #members == 0 then return out end
local ids = {}
for i, m in ipairs(members) do ids[i] = string.sub(m, 22) end
local totals = redis.call('HMGET', KEYS[2], unpack(ids))
for i, m in ipairs(members) do
  out[#out + 1] = ids[i]
  out[#out + 1] = totals[i] or '{}'
end
return out
