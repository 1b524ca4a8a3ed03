-- Up Migration

-- The first account (created by setup) is the network operator's.
ALTER TABLE accounts ADD COLUMN is_operator boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX accounts_one_operator_idx ON accounts (is_operator) WHERE is_operator;

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  username text NOT NULL,
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'moderator', 'viewer')),
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
-- Login names are unique across the whole service: the login form has no account field.
CREATE UNIQUE INDEX users_username_idx ON users (lower(username)) WHERE deleted_at IS NULL;
CREATE INDEX users_account_idx ON users (account_id);

-- One row per login; the JWT's jti is the id. Revocation lives here, so it survives Redis.
CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  account_id uuid REFERENCES accounts (id),
  at timestamptz NOT NULL,
  actor_type text NOT NULL,
  actor_id text,
  actor_name text,
  action text NOT NULL,
  target_type text,
  target_id text,
  ip text,
  details jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_account_idx ON audit_log (account_id, id DESC);

-- Down Migration

DROP TABLE audit_log, sessions, users;
DROP INDEX accounts_one_operator_idx;
ALTER TABLE accounts DROP COLUMN is_operator;
