-- Invalidates the cached trust scores of players whose keys share one hash slot (a bucket): each
-- score goes and its version moves on, so a score being computed from the old evidence is not
-- stored (store-score.lua compares the version).
-- KEYS: score key, version key, of each player in turn; ARGV[1] the versions' TTL in seconds.
for i = 1, #KEYS, 2 do
  redis.call('DEL', KEYS[i])
  redis.call('INCR', KEYS[i + 1])
  redis.call('EXPIRE', KEYS[i + 1], ARGV[1])
end
return #KEYS / 2
