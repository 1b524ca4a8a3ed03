-- Sliding-window rate limit: the previous fixed window's count, weighted by how much of it still
-- overlaps the sliding window, plus the current window's count. Counts and expires atomically.
-- KEYS: current window counter, previous window counter
-- ARGV: limit, window ms, ms elapsed in the current window
-- Returns { allowed 0|1, remaining }
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local elapsed = tonumber(ARGV[3])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local used = previous * (window - elapsed) / window + current
if used + 1 > limit then
  return { 0, 0 }
end
if redis.call('INCR', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], window * 2)
end
return { 1, math.floor(limit - used - 1) }
