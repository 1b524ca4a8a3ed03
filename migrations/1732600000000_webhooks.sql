-- Up Migration

-- Outbound events of a community (src/webhooks/): the endpoints it sends them to, the events
-- waiting for each endpoint (written in the transaction of the change they report), and the last
-- deliveries of each endpoint.

-- A community's endpoint. server_ids NULL: every server of the account. A standard endpoint signs
-- with a secret derived from the configured key, its id and secret_generation (nothing secret is
-- stored); after a rotation the secret before also signs until previous_secret_valid_until.
-- retry_at, failing_since and failed_attempts are the state of the event at the head of its queue.
CREATE TABLE webhook_endpoints (
    id uuid DEFAULT gen_random_uuid() NOT NULL PRIMARY KEY,
    account_id uuid NOT NULL REFERENCES accounts(id),
    url text NOT NULL,
    format text NOT NULL,
    events text[] NOT NULL,
    server_ids uuid[],
    secret_generation integer DEFAULT 1 NOT NULL,
    previous_secret_valid_until timestamp with time zone,
    paused_at timestamp with time zone,
    paused_reason text,
    retry_at timestamp with time zone,
    failing_since timestamp with time zone,
    failed_attempts integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT webhook_endpoints_format_check CHECK ((format = ANY (ARRAY['discord'::text, 'standard'::text])))
);

CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints USING btree (account_id);

-- Events waiting for an endpoint, delivered in id order, one request at a time; a row goes once
-- its endpoint acknowledged it.
CREATE TABLE webhook_outbox (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    event_id uuid DEFAULT gen_random_uuid() NOT NULL,
    type text NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    data jsonb NOT NULL
);

CREATE INDEX webhook_outbox_endpoint_idx ON webhook_outbox USING btree (endpoint_id, id);

-- The last deliveries of an endpoint (the worker keeps 100 an endpoint).
CREATE TABLE webhook_deliveries (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    event_ids uuid[] NOT NULL,
    event_types text[] NOT NULL,
    attempt integer NOT NULL,
    outcome text NOT NULL,
    status_code integer,
    error text,
    at timestamp with time zone NOT NULL,
    duration_ms integer NOT NULL,
    CONSTRAINT webhook_deliveries_outcome_check CHECK ((outcome = ANY (ARRAY['delivered'::text, 'failed'::text, 'rate-limited'::text])))
);

CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries USING btree (endpoint_id, id DESC);

-- Down Migration

DROP TABLE webhook_deliveries;
DROP TABLE webhook_outbox;
DROP TABLE webhook_endpoints;
