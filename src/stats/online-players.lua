-- Players seen since a time, most recent first, with their stored values (for the name); first the
-- applied version (w, or '' while the server's derived state is missing or being rebuilt) and the
-- oldest listed player's last presence (ms, or '' when nobody is online): the list stays valid
-- until that player would leave the window.
-- KEYS: online, players, meta   ARGV: min ms
-- Returns { w|'', oldest ms|'', platformId1, value1, platformId2, value2, ... }
local meta = redis.call('HMGET', KEYS[3], 'w', 'r')
local applied = meta[1]
if not applied or meta[2] then applied = '' end
local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', ARGV[1])
local oldest = ''
if #ids > 0 then oldest = redis.call('ZSCORE', KEYS[1], ids[#ids]) end
local out = { applied, oldest }
for i = 1, #ids, 1000 do
  local chunk = { unpack(ids, i, math.min(i + 999, #ids)) }
  local values = redis.call('HMGET', KEYS[2], unpack(chunk))
  for j, id in ipairs(chunk) do
    out[#out + 1] = id
    out[#out + 1] = values[j] or '0||{}'
  end
end
return out
