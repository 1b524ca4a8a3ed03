-- Drops the cached scores of players of one bucket: first their computations under way (so none
-- of them stores a score computed from older evidence), then their scores (one stored before the
-- first step is removed by the second). Atomic, and one call a bucket instead of two commands.
-- KEYS[1] the bucket's computing hash, KEYS[2..] the players' score keys; ARGV their platform ids.
-- Returns how many of the players had a score stored.
redis.call('HDEL', KEYS[1], unpack(ARGV))
return redis.call('DEL', unpack(KEYS, 2))
