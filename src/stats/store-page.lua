-- Stores a rendered page only if the server has not changed since it was computed.
-- KEYS: pages, gen   ARGV: generation, field, page, ttl ms
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
