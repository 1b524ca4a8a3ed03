-- Stores a computed trust score unless the player's evidence changed while it was computed.
-- KEYS[1] score key, KEYS[2] version key; ARGV[1] the version read before computing ('' if none),
-- ARGV[2] the value, ARGV[3] its TTL in ms. Returns 1 when stored.
local version = redis.call('GET', KEYS[2]) or ''
if version ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
