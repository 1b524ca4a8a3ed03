-- Sliding-window rate limit: the previous fixed window's count, weighted by how much of it still
-- overlaps the sliding window, plus the current window's count. Counts and expires atomically.
-- A refusal says how long until a request would be admitted: while the current window has room,
-- until the previous window's weight has shrunk enough; when it is full, until the next window,
-- where this one's count is the weighted previous.
-- A call takes one request's token (src/http/rate-limit.ts) or up to `want` at once, a lease a
-- process spends without asking again (src/http/rate-leases.ts). Tokens are counted here when
-- granted, so every process sees them as used: none can admit more than the window allows. Near
-- the limit a grant is one token, so the last requests of a window are counted one by one. A
-- process gives back, with its next call, the tokens of the window before this one it did not
-- spend: the sliding window weighs that window's count.
-- KEYS: current window counter, previous window counter
-- ARGV: limit, window ms, ms elapsed in the current window, tokens wanted, tokens given back to the previous window
-- Returns { tokens granted (0: refused), current window's count after the grant, previous window's count, ms until admitted (when refused) }
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local elapsed = tonumber(ARGV[3])
local want = tonumber(ARGV[4])
local back = tonumber(ARGV[5])
if back > 0 and redis.call('DECRBY', KEYS[2], back) < 0 then
  -- Never below zero: a counter that expired and came back as a new key held none of these.
  redis.call('DEL', KEYS[2])
end
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
  return { 0, current, previous, math.max(1, math.ceil(wait)) }
end
local granted = math.min(want, math.max(1, math.floor((limit - used) / 8)))
current = redis.call('INCRBY', KEYS[1], granted)
if current == granted then
  redis.call('PEXPIRE', KEYS[1], window * 2)
end
return { granted, current, previous, 0 }
