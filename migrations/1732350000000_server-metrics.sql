-- Up Migration

-- Every server.status sample, for the dashboard's chart of players and fps over time (the servers
-- row keeps only the newest). One sample per server and instant: a status event retried or sent
-- twice at the same time is stored once. The worker prunes samples past their retention.
CREATE TABLE server_metrics (
  server_id uuid NOT NULL REFERENCES servers (id),
  at timestamptz NOT NULL,
  online boolean NOT NULL,
  players integer,
  fps double precision,
  uptime_seconds bigint,
  PRIMARY KEY (server_id, at)
);
CREATE INDEX server_metrics_at_idx ON server_metrics (at);

-- Down Migration

DROP TABLE server_metrics;
