-- Login lockout per (IP, username), as the spec's state table: 5 failures within 10 minutes lock
-- the pair; the first lockout lasts 60 s, the second 5 min, the third and later 1 h; the level is
-- remembered for 24 h after the last lockout; a success clears the failure counter.
-- An attempt is reserved ("begin") before its password is checked, and the reservations count
-- with the failures: however many attempts arrive at once, at most `threshold` passwords are
-- checked per lock cycle. A reservation ends with "fail" or "success", "release" (the check itself
-- failed: a store error), or expires (a crashed process) after 30 s.
-- KEYS: failures list, state hash (until, level, lastLock), pending zset (attempt id -> expiry ms)
-- ARGV: mode (begin | fail | success | release), now ms, window ms, threshold, memory ms, d1, d2, d3 (ms), attempt id
-- Returns { refused 0|1|2 (2: attempts in flight fill the cycle; try again shortly), ms to wait, locked now 0|1 }
local mode, now = ARGV[1], tonumber(ARGV[2])
local window, threshold, memory = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local attempt = ARGV[9]
local reservationMs = 30000

local function trim()
  while true do
    local first = redis.call('LINDEX', KEYS[1], 0)
    if not first or tonumber(first) > now - window then break end
    redis.call('LPOP', KEYS[1])
  end
end

if mode == 'begin' then
  local untilMs = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
  if untilMs > now then return { 1, untilMs - now, 0 } end
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  trim()
  if redis.call('LLEN', KEYS[1]) + redis.call('ZCARD', KEYS[3]) >= threshold then
    -- As many attempts as may be checked are in flight: this one waits for their outcome.
    return { 2, 1000, 0 }
  end
  redis.call('ZADD', KEYS[3], now + reservationMs, attempt)
  redis.call('PEXPIRE', KEYS[3], reservationMs)
  return { 0, 0, 0 }
end

redis.call('ZREM', KEYS[3], attempt)
if mode == 'release' then return { 0, 0, 0 } end
if mode == 'success' then
  redis.call('DEL', KEYS[1])
  return { 0, 0, 0 }
end
redis.call('RPUSH', KEYS[1], now)
trim()
redis.call('PEXPIRE', KEYS[1], window)
if redis.call('LLEN', KEYS[1]) < threshold then return { 0, 0, 0 } end
local level = tonumber(redis.call('HGET', KEYS[2], 'level') or '0')
local lastLock = tonumber(redis.call('HGET', KEYS[2], 'lastLock') or '0')
if now - lastLock > memory then level = 0 end
level = level + 1
local duration = tonumber(ARGV[5 + math.min(level, 3)])
redis.call('HSET', KEYS[2], 'until', now + duration, 'level', level, 'lastLock', now)
redis.call('PEXPIRE', KEYS[2], memory + duration)
redis.call('DEL', KEYS[1])
return { 1, duration, 1 }
