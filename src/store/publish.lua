-- Publishes a message on one of the service's channels. Sent as a script naming the channel as
-- its key, so that on a Redis Cluster every message of a channel leaves through the master of
-- that key's slot, in the order the process sent them: a bare PUBLISH goes to any node, and two
-- sent through different nodes can reach a subscriber in either order.
-- KEYS[1] the channel's name as a key (it routes the call; nothing is read or written there)
-- ARGV[1] the channel (the key with its prefix), ARGV[2] the message. Returns the receivers counted.
return redis.call('PUBLISH', ARGV[1], ARGV[2])
