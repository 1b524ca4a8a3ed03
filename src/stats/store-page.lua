-- Stores a rendered page only if the server has not changed since it was computed, and only while
-- the server holds fewer than the cap of pages: a client walking through offsets and limits must
-- not grow the hash without bound. The expiry is set when the hash is created and never extended,
-- so a steady stream of new pages cannot keep it alive forever.
-- KEYS: pages, gen   ARGV: generation, field, page, ttl ms, max pages
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[1] then return 0 end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4], 'NX')
return 1
