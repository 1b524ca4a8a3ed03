-- Stores a computed trust score unless the player's evidence changed while it was computed: its
-- computation is still registered under its token (src/trust/score.store.ts beginScore). The
-- bucket's held set gets the player with the score's expiry (Redis time), so a drop finds the
-- players whose score it must remove without naming every player's key; entries past their
-- expiry leave the set here, and the set itself goes with the last of its scores.
-- KEYS[1] score key, KEYS[2] the bucket's computing hash, KEYS[3] the bucket's held set;
-- ARGV[1] platform id, ARGV[2] token, ARGV[3] the value, ARGV[4] its TTL in ms. Returns 1 when stored.
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[4]), ARGV[1])
if redis.call('PTTL', KEYS[3]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[3], ARGV[4]) end
return 1
