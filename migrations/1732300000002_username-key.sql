-- Up Migration

-- One canonical form of a username (NFKC, lower-cased in JavaScript, src/users/username.ts) serves
-- the sign-in lookup, the lockout key and the uniqueness rule alike, so no two of them can disagree
-- about which user a name means. Existing usernames are ASCII (the creation schemas allow nothing
-- else), where lower() gives the same form.
ALTER TABLE users ADD COLUMN username_key text;
UPDATE users SET username_key = lower(username);
ALTER TABLE users ALTER COLUMN username_key SET NOT NULL;
DROP INDEX users_username_idx;
CREATE UNIQUE INDEX users_username_key_idx ON users (username_key) WHERE deleted_at IS NULL;

-- Down Migration

DROP INDEX users_username_key_idx;
CREATE UNIQUE INDEX users_username_idx ON users (lower(username)) WHERE deleted_at IS NULL;
ALTER TABLE users DROP COLUMN username_key;
