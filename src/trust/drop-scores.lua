-- Tells which players of one bucket may hold a stored score to drop: every one computed within a
-- score's longest life (ARGV[2] ms), or, for play (ARGV[1] > 0), only those computed at least
-- ARGV[1] ms ago: play moves a score a little and often, so a score picks it up within that
-- much rather than at every batch. A drop of changed evidence (ARGV[1] = 0) also cancels the
-- computations under way, so none stores a score computed from older evidence. The caller removes
-- the scores named (one stored after this call, from newer evidence, costs only a recomputation).
-- An ingested batch names a thousand players, mostly without a score: they are sent once each,
-- as arguments, not as keys of their own.
-- KEYS[1] the bucket's computing hash, KEYS[2] its held set (player -> when its score was computed);
-- ARGV[1] the least age to drop (ms), ARGV[2] a score's longest life (ms), ARGV[3..] the platform ids.
local minAge, maxAge = tonumber(ARGV[1]), tonumber(ARGV[2])
local ids = { unpack(ARGV, 3) }
if minAge == 0 then redis.call('HDEL', KEYS[1], unpack(ids)) end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local computed = redis.call('ZMSCORE', KEYS[2], unpack(ids))
local held, n = {}, 0
for i = 1, #ids do
  local at = computed[i] and tonumber(computed[i])
  if at and at > now - maxAge and at <= now - minAge then n = n + 1; held[n] = ids[i] end
end
return held
