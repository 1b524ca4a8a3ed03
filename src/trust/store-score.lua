-- Stores a computed trust score unless the player's evidence changed while it was computed: its
-- computation is still registered under its token (src/trust/score.store.ts beginScore).
-- KEYS[1] score key, KEYS[2] the bucket's computing hash; ARGV[1] platform id, ARGV[2] token,
-- ARGV[3] the value, ARGV[4] its TTL in ms. Returns 1 when stored.
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return 1
