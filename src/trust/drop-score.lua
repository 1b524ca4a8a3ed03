-- Invalidates one player's cached trust score: the score goes and the version moves on, so a score
-- being computed from the old evidence is not stored (store-score.lua compares the version).
-- KEYS[1] score key, KEYS[2] version key (one hash slot); ARGV[1] the version's TTL in seconds.
redis.call('DEL', KEYS[1])
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return 1
