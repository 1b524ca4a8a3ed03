-- Registers a computation of a player's score, unless one began less than ARGV[4] ms ago (by the
-- service clock, ARGV[3]): then the computation under way is left alone, and its caller waits for
-- its score instead of registering over it (each registration cancelled the one before, so under
-- load no computation could store). A drop removes the registration (drop-scores.lua).
-- KEYS[1] the bucket's computing hash; ARGV[1] platform id, ARGV[2] token "<process>:<n>:<startedMs>",
-- ARGV[3] now (ms), ARGV[4] how long a registration holds (ms), ARGV[5] the hash's TTL (ms).
-- Returns {1, token} when registered, {0, the registered token} when one is under way.
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then
  local started = tonumber(string.match(current, ':(%d+)$'))
  if started and tonumber(ARGV[3]) - started < tonumber(ARGV[4]) then return {0, current} end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, ARGV[2]}
