-- Writes a server's changed state in one step: absolute player totals (re-ranked in the three
-- leaderboards), online-window entries, the status record; then drops the rendered pages and
-- bumps the generation so a page computed before this change is never stored after it.
-- KEYS: players, lb:points, lb:kd, lb:kills, online, status, pages, gen
-- ARGV[1]: JSON { players = [[platformId, totalsJson, member|"", previous member|"", points, kd, kills]],
--                 online = [[platformId, ms]], offline = [platformId], status = json|"" }
-- ARGV[2]: ms before which online-window entries are stale and dropped
local p = cjson.decode(ARGV[1])
for _, e in ipairs(p.players) do
  local platformId, totals, member, previous = e[1], e[2], e[3], e[4]
  if previous ~= '' and previous ~= member then
    redis.call('ZREM', KEYS[2], previous)
    redis.call('ZREM', KEYS[3], previous)
    redis.call('ZREM', KEYS[4], previous)
  end
  redis.call('HSET', KEYS[1], platformId, totals)
  if member ~= '' then
    redis.call('ZADD', KEYS[2], e[5], member)
    redis.call('ZADD', KEYS[3], e[6], member)
    redis.call('ZADD', KEYS[4], e[7], member)
  end
end
for _, o in ipairs(p.online) do
  redis.call('ZADD', KEYS[5], o[2], o[1])
end
for _, platformId in ipairs(p.offline) do
  redis.call('ZREM', KEYS[5], platformId)
end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', '(' .. ARGV[2])
if p.status ~= '' then
  redis.call('SET', KEYS[6], p.status)
end
redis.call('DEL', KEYS[7])
return redis.call('INCR', KEYS[8])
