-- Up Migration

-- Chat bots are per community: each signs its calls with a secret of its own, which the service
-- derives from its configured key, the bot's id and the secret's generation (nothing secret is
-- stored). A rotation keeps the generation before valid for 24 hours.
CREATE TABLE chat_bots (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  generation integer NOT NULL DEFAULT 1,
  previous_valid_until timestamptz,
  created_at timestamptz NOT NULL,
  rotated_at timestamptz,
  deleted_at timestamptz
);
CREATE INDEX chat_bots_account_idx ON chat_bots (account_id) WHERE deleted_at IS NULL;

-- A community may refuse chat calls that are not signed by one of its bots.
ALTER TABLE accounts ADD COLUMN chat_require_signature boolean NOT NULL DEFAULT false;

-- Down Migration

ALTER TABLE accounts DROP COLUMN chat_require_signature;
DROP TABLE chat_bots;
