-- Login lockout per (IP, username), as the spec's state table: 5 failures within 10 minutes lock
-- the pair; the first lockout lasts 60 s, the second 5 min, the third and later 1 h; the level is
-- remembered for 24 h after the last lockout; a success clears the failure counter.
-- KEYS: failures list, state hash (until, level, lastLock)
-- ARGV: mode (check | fail | success), now ms, window ms, threshold, memory ms, d1, d2, d3 (ms)
-- Returns { locked 0|1, ms until the lock ends }
local mode, now = ARGV[1], tonumber(ARGV[2])
local window, threshold, memory = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local untilMs = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
if untilMs > now then return { 1, untilMs - now } end
if mode == 'success' then
  redis.call('DEL', KEYS[1])
  return { 0, 0 }
end
if mode == 'check' then return { 0, 0 } end
redis.call('RPUSH', KEYS[1], now)
while tonumber(redis.call('LINDEX', KEYS[1], 0)) <= now - window do redis.call('LPOP', KEYS[1]) end
redis.call('PEXPIRE', KEYS[1], window)
if redis.call('LLEN', KEYS[1]) < threshold then return { 0, 0 } end
local level = tonumber(redis.call('HGET', KEYS[2], 'level') or '0')
local lastLock = tonumber(redis.call('HGET', KEYS[2], 'lastLock') or '0')
if now - lastLock > memory then level = 0 end
level = level + 1
local duration = tonumber(ARGV[5 + math.min(level, 3)])
redis.call('HSET', KEYS[2], 'until', now + duration, 'level', level, 'lastLock', now)
redis.call('PEXPIRE', KEYS[2], memory + duration)
redis.call('DEL', KEYS[1])
return { 1, duration }
