-- Up Migration

-- Actions on game hosts go through the server's agent: the service never runs a command a community
-- chose. The restart command column goes, and the shell era's command records with it (their output
-- tails could hold whatever a command printed, secrets included).
ALTER TABLE servers DROP COLUMN restart_command;
DROP TABLE server_commands;

-- Commands for a server's agent (restart, message, kick): created by admins, bans, the chat bot and
-- restart schedules; taken by the agent's long poll, answered with their result.
CREATE TABLE server_commands (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Creation order: commands made in the same millisecond are still handed and listed in order.
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  server_id uuid NOT NULL REFERENCES servers (id),
  account_id uuid NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('restart', 'message', 'kick')),
  params jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'done', 'failed', 'expired')),
  requested_by_type text NOT NULL CHECK (requested_by_type IN ('user', 'chat', 'system')),
  requested_by_id text,
  requested_by_name text,
  created_at timestamptz NOT NULL,
  -- Not taken by then: expired (a restart must never fire hours late).
  expires_at timestamptz NOT NULL,
  -- First handed to an agent; handed_at is the latest hand (an agent restarted before answering
  -- gets the command again 60 s after it).
  sent_at timestamptz,
  handed_at timestamptz,
  hands integer NOT NULL DEFAULT 0,
  finished_at timestamptz,
  detail text,
  -- A scheduled restart names the time it is for: a schedule queues each time once.
  scheduled_for timestamptz
);
CREATE INDEX server_commands_open_idx ON server_commands (server_id, seq) WHERE status IN ('pending', 'sent');
CREATE INDEX server_commands_history_idx ON server_commands (server_id, seq);
CREATE UNIQUE INDEX server_commands_scheduled_idx ON server_commands (server_id, scheduled_for) WHERE scheduled_for IS NOT NULL;

-- Restart schedules: the times of day (in the server's zone) a server restarts at.
CREATE TABLE server_restart_schedules (
  server_id uuid PRIMARY KEY REFERENCES servers (id),
  account_id uuid NOT NULL REFERENCES accounts (id),
  enabled boolean NOT NULL,
  time_zone text NOT NULL,
  times text[] NOT NULL,
  warning_seconds integer NOT NULL,
  message text,
  -- The next shutdown time; its command is queued warning_seconds before.
  next_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE INDEX server_restart_schedules_next_idx ON server_restart_schedules (next_at) WHERE enabled;

-- Down Migration

DROP TABLE server_restart_schedules;
DROP TABLE server_commands;
ALTER TABLE servers ADD COLUMN restart_command text;
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
