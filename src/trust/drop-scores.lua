-- Drops the computations under way of players of one bucket (so none of them stores a score
-- computed from older evidence) and tells which of them may hold a stored score: the caller then
-- removes those scores (one stored after this call was computed from the newer evidence, and
-- removing it too only costs a recomputation). An ingested batch names a thousand players, mostly
-- without a score: they are sent once each, as arguments, not as keys of their own.
-- KEYS[1] the bucket's computing hash, KEYS[2] its held set; ARGV the platform ids.
-- Returns the platform ids whose score has not expired.
redis.call('HDEL', KEYS[1], unpack(ARGV))
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local expiries = redis.call('ZMSCORE', KEYS[2], unpack(ARGV))
local held, n = {}, 0
for i = 1, #ARGV do
  local expiry = expiries[i]
  if expiry and tonumber(expiry) > now then n = n + 1; held[n] = ARGV[i] end
end
return held
