-- Up Migration

-- Start and restart requests (POST /api/servers/:id/start|restart): the web process records them,
-- the worker syncs the server's files, runs its restart command and records the outcome.
CREATE TABLE server_commands (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  server_id uuid NOT NULL REFERENCES servers (id),
  account_id uuid NOT NULL REFERENCES accounts (id),
  action text NOT NULL CHECK (action IN ('start', 'restart')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
  requested_by_id text,
  requested_by_name text,
  requested_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  exit_code integer,
  output_tail text,
  error text
);
CREATE INDEX server_commands_pending_idx ON server_commands (requested_at) WHERE status IN ('pending', 'running');

-- Down Migration

DROP TABLE server_commands;
