-- Sliding-window rate limit: the previous fixed window's count, weighted by how much of it still
-- overlaps the sliding window, plus the current window's count. Counts and expires atomically.
-- A refusal says how long until a request would be admitted: while the current window has room,
-- until the previous window's weight has shrunk enough; when it is full, until the next window,
-- where this one's count is the weighted previous.
-- KEYS: current window counter, previous window counter
-- ARGV: limit, window ms, ms elapsed in the current window
-- Returns { allowed 0|1, remaining, ms until admitted (when refused) }
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local elapsed = tonumber(ARGV[3])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local used = previous * (window - elapsed) / window + current
if used + 1 > limit then
  local wait
  if current + 1 <= limit then
    wait = window - (limit - current - 1) * window / previous - elapsed
  else
    wait = window - elapsed + math.max(0, window - (limit - 1) * window / current)
  end
  return { 0, 0, math.max(1, math.ceil(wait)) }
end
if redis.call('INCR', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], window * 2)
end
return { 1, math.floor(limit - used - 1), 0 }
