-- Stores a computed trust score unless the player's evidence changed while it was computed: its
-- computation is still registered under its token (src/trust/score.store.ts beginScore). The
-- bucket's held set gets the player with the time the score was stored (Redis time), so a drop
-- finds the players whose score it must remove (and, for play, whether the score is old enough to
-- go) without naming every player's key; entries older than a score's longest life leave the set
-- here, and the set itself goes a longest life after its last score.
-- KEYS[1] score key, KEYS[2] the bucket's computing hash, KEYS[3] the bucket's held set;
-- ARGV[1] platform id, ARGV[2] token, ARGV[3] the value, ARGV[4] its TTL in ms, ARGV[5] a score's
-- longest life in ms. Returns 1 when stored.
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[5]))
redis.call('ZADD', KEYS[3], now, ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[5])
return 1
