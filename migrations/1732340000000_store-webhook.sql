-- Up Migration

-- Every signed store event, once: the primary key makes a replayed or concurrently
-- redelivered event id a repeat that changes nothing.
CREATE TABLE store_events (
  source text NOT NULL CHECK (source IN ('tebex', 'own')),
  event_id text NOT NULL,
  type text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (source, event_id)
);

-- One row per purchase line (a purchase, the sku it bought and the player it is for): what it granted, so that a refund
-- can take back exactly that; or, when the refund came first, a row already refunded, so the late
-- purchase grants nothing. An own-format refund naming no purchase that matched none is kept with
-- purchase_ref NULL until the next purchase of that player and sku consumes it.
CREATE TABLE store_purchases (
  id bigserial PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('tebex', 'own')),
  purchase_ref text,
  sku text NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id),
  platform_id text NOT NULL,
  purchase_event_id text,
  days integer,
  entry_id uuid,
  entry_created boolean,
  previous_expires_at timestamptz,
  purchased_at timestamptz,
  refunded_at timestamptz,
  refund_event_id text
);
CREATE UNIQUE INDEX store_purchases_ref_idx ON store_purchases (source, purchase_ref, sku, platform_id) WHERE purchase_ref IS NOT NULL;
CREATE INDEX store_purchases_player_idx ON store_purchases (source, platform_id, sku, id DESC);

-- Down Migration

DROP TABLE store_purchases, store_events;
