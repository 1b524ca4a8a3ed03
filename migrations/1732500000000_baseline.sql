-- Up Migration

-- The schema as one baseline: the migrations before it were squashed into it (none was ever
-- released). Functions and triggers are not here: they live beside their capability
-- (src/*/sql/*.sql) and are applied after every migrate with CREATE OR REPLACE (src/store/migrate.ts).

CREATE TABLE servers (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    account_id uuid NOT NULL,
    name text NOT NULL,
    ingest_token_hash bytea NOT NULL,
    ban_file_path text,
    priority_file_path text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revoked_at timestamp with time zone,
    map text,
    game_version text,
    online boolean DEFAULT false NOT NULL,
    status_at timestamp with time zone,
    last_seen_at timestamp with time zone,
    players integer,
    fps double precision,
    uptime_seconds bigint,
    metrics_at timestamp with time zone,
    derived_version bigint DEFAULT 0 NOT NULL
);

CREATE TABLE accounts (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    is_operator boolean DEFAULT false NOT NULL,
    chat_require_signature boolean DEFAULT false NOT NULL
);

CREATE TABLE api_keys (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    account_id uuid NOT NULL,
    name text NOT NULL,
    tier text NOT NULL,
    key_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revoked_at timestamp with time zone,
    CONSTRAINT api_keys_tier_check CHECK ((tier = ANY (ARRAY['standard'::text, 'partner'::text])))
);

CREATE TABLE audit_log (
    id bigint NOT NULL,
    account_id uuid,
    at timestamp with time zone NOT NULL,
    actor_type text NOT NULL,
    actor_id text,
    actor_name text,
    action text NOT NULL,
    target_type text,
    target_id text,
    ip text,
    details jsonb DEFAULT '{}'::jsonb NOT NULL
);

CREATE SEQUENCE audit_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE audit_log_id_seq OWNED BY audit_log.id;

-- What a community's ban file holds over time, instead of one row per ban and server: every server
-- of an account is written the same file (rendered once per account), so a server's file holds
-- the entries that were open at its last sync (game_file_syncs.synced_at). A first sync of 50,000
-- bans to 20 servers wrote 1,000,000 ban_syncs rows and each later sync checked 50,000 per server;
-- now it writes 50,000 once and checks them once per account. An entry is closed (removed_at) when
-- its ban leaves the file, and a ban back in force gets a new entry.
CREATE TABLE ban_file_entries (
    account_id uuid NOT NULL,
    ban_id uuid NOT NULL,
    added_at timestamp with time zone NOT NULL,
    removed_at timestamp with time zone,
    banned_at timestamp with time zone NOT NULL
);

CREATE TABLE bans (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    account_id uuid NOT NULL,
    platform_id text NOT NULL,
    player_name text,
    reason text,
    source text NOT NULL,
    banned_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone,
    lifted_at timestamp with time zone,
    dayz_id text,
    created_by_id text,
    created_by_name text,
    lifted_by_id text,
    lifted_by_name text,
    imported_from uuid,
    updated_at timestamp with time zone,
    CONSTRAINT bans_source_check CHECK ((source = ANY (ARRAY['manual'::text, 'import'::text, 'cloud'::text])))
);

-- Chat bots are per community: each signs its calls with a secret of its own, which the service
-- derives from its configured key, the bot's id and the secret's generation (nothing secret is
-- stored). A rotation keeps the generation before valid for 24 hours.
CREATE TABLE chat_bots (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    account_id uuid NOT NULL,
    name text NOT NULL,
    generation integer DEFAULT 1 NOT NULL,
    previous_valid_until timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    rotated_at timestamp with time zone,
    deleted_at timestamp with time zone
);

CREATE TABLE event_claims (
    sent_at timestamp with time zone NOT NULL,
    server_id uuid NOT NULL,
    event_id uuid NOT NULL,
    received_at timestamp with time zone NOT NULL
)
PARTITION BY RANGE (sent_at);

CREATE TABLE event_claims_other (
    sent_at timestamp with time zone NOT NULL,
    server_id uuid NOT NULL,
    event_id uuid NOT NULL,
    received_at timestamp with time zone NOT NULL
);

CREATE SEQUENCE file_sync_request_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

CREATE TABLE file_sync_requests (
    server_id uuid NOT NULL,
    kind text NOT NULL,
    requested_at timestamp with time zone NOT NULL,
    seq bigint DEFAULT nextval('file_sync_request_seq'::regclass) NOT NULL,
    failures integer DEFAULT 0 NOT NULL,
    retry_at timestamp with time zone,
    last_error text,
    CONSTRAINT file_sync_requests_kind_check CHECK ((kind = ANY (ARRAY['bans'::text, 'priority'::text])))
);

-- What the last sync of each server's game file did: the path it wrote (a first sync of a path
-- imports the entries already in it) and a digest of the content.
CREATE TABLE game_file_syncs (
    server_id uuid NOT NULL,
    kind text NOT NULL,
    path text,
    sha256 text NOT NULL,
    entries integer NOT NULL,
    synced_at timestamp with time zone NOT NULL,
    CONSTRAINT game_file_syncs_kind_check CHECK ((kind = ANY (ARRAY['bans'::text, 'priority'::text])))
);

-- ts is unique per server at microsecond precision, so a date-time cursor pages exactly.
CREATE TABLE kills (
    server_id uuid NOT NULL,
    ts timestamp with time zone NOT NULL,
    killer_platform_id text NOT NULL,
    killer_name text NOT NULL,
    victim_platform_id text NOT NULL,
    victim_name text NOT NULL,
    weapon text NOT NULL,
    distance double precision NOT NULL,
    is_headshot boolean NOT NULL,
    hit_zone text
);

-- Partner keys of the export feed; only the SHA-256 of a key is stored.
CREATE TABLE partner_keys (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    tier text NOT NULL,
    key_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revoked_at timestamp with time zone,
    CONSTRAINT partner_keys_tier_check CHECK ((tier = ANY (ARRAY['basic'::text, 'premium'::text])))
);

-- Ids that were a player of their own and now resolve to a Steam64 (docs/decisions.md): a console id an
-- admin linked, or a DayZ ID merged into its Steam64 (kept here too, so the link survives even if
-- the Steam64's row is renamed). A DayZ ID of a known Steam64 also resolves through players.dayz_id.
CREATE TABLE player_aliases (
    alias_id text NOT NULL,
    platform_id text NOT NULL,
    linked_at timestamp with time zone NOT NULL
);

-- Chat-platform user ids linked to players (the chat `link` action, or an admin).
CREATE TABLE player_links (
    chat_user_id text NOT NULL,
    platform_id text NOT NULL,
    linked_at timestamp with time zone DEFAULT now() NOT NULL
);

-- Network-wide identity of a player; service_id is the UUID the trust network publishes.
CREATE TABLE players (
    platform_id text NOT NULL,
    service_id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    first_seen_at timestamp with time zone NOT NULL,
    last_seen_at timestamp with time zone NOT NULL,
    dayz_id text,
    be_guid text
)
WITH (fillfactor='70');

-- Priority-queue (VIP) entries: one per player and scope; server_ids NULL = every server
-- of the account; scope_key is 'all' or the sorted server ids, so "one entry per player and scope"
-- is a unique index.
CREATE TABLE priority_queue (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    account_id uuid NOT NULL,
    platform_id text NOT NULL,
    player_name text,
    comment text,
    server_ids uuid[],
    scope_key text NOT NULL,
    expires_at timestamp with time zone,
    source text DEFAULT 'manual'::text NOT NULL,
    created_by_id text,
    created_by_name text,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone,
    CONSTRAINT priority_queue_source_check CHECK ((source = ANY (ARRAY['manual'::text, 'store'::text, 'import'::text])))
);

-- Start and restart requests (POST /api/servers/:id/start|restart): the web process records them,
-- the worker syncs the server's files, runs its restart command and records the outcome.
CREATE TABLE server_commands (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    seq bigint NOT NULL,
    server_id uuid NOT NULL,
    account_id uuid NOT NULL,
    kind text NOT NULL,
    params jsonb NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    requested_by_type text NOT NULL,
    requested_by_id text,
    requested_by_name text,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    sent_at timestamp with time zone,
    handed_at timestamp with time zone,
    hands integer DEFAULT 0 NOT NULL,
    finished_at timestamp with time zone,
    detail text,
    scheduled_for timestamp with time zone,
    CONSTRAINT server_commands_kind_check CHECK ((kind = ANY (ARRAY['restart'::text, 'message'::text, 'kick'::text]))),
    CONSTRAINT server_commands_requested_by_type_check CHECK ((requested_by_type = ANY (ARRAY['user'::text, 'chat'::text, 'system'::text]))),
    CONSTRAINT server_commands_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'sent'::text, 'done'::text, 'failed'::text, 'expired'::text])))
);

ALTER TABLE server_commands ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME server_commands_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- Every server.status sample, for the dashboard's chart of players and fps over time (the servers
-- row keeps only the newest). One sample per server and instant: a status event retried or sent
-- twice at the same time is stored once. The worker prunes samples past their retention.
CREATE TABLE server_metrics (
    server_id uuid NOT NULL,
    at timestamp with time zone NOT NULL,
    online boolean NOT NULL,
    players integer,
    fps double precision,
    uptime_seconds bigint
);

-- Per-server totals, updated in the same transaction as the events that change them;
-- Redis leaderboards and online windows are rebuilt from this table.
CREATE TABLE server_players (
    server_id uuid NOT NULL,
    platform_id text NOT NULL,
    name text,
    kills integer DEFAULT 0 NOT NULL,
    deaths integer DEFAULT 0 NOT NULL,
    headshots integer DEFAULT 0 NOT NULL,
    kill_distance_sum double precision DEFAULT 0 NOT NULL,
    play_seconds double precision DEFAULT 0 NOT NULL,
    shots_fired bigint DEFAULT 0 NOT NULL,
    shots_hit bigint DEFAULT 0 NOT NULL,
    online_at timestamp with time zone,
    name_at timestamp with time zone,
    presence_at timestamp with time zone
)
WITH (fillfactor='70');

-- Restart schedules: the times of day (in the server's zone) a server restarts at.
CREATE TABLE server_restart_schedules (
    server_id uuid NOT NULL,
    account_id uuid NOT NULL,
    enabled boolean NOT NULL,
    time_zone text NOT NULL,
    times text[] NOT NULL,
    warning_seconds integer NOT NULL,
    message text,
    next_at timestamp with time zone,
    updated_at timestamp with time zone NOT NULL
);

-- One row per login; the JWT's jti is the id. Revocation lives here, so it survives Redis.
CREATE TABLE sessions (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    revoked_at timestamp with time zone
);

-- Every signed store event, once: the primary key makes a replayed or concurrently
-- redelivered event id a repeat that changes nothing.
CREATE TABLE store_events (
    source text NOT NULL,
    event_id text NOT NULL,
    type text NOT NULL,
    received_at timestamp with time zone NOT NULL,
    CONSTRAINT store_events_source_check CHECK ((source = ANY (ARRAY['tebex'::text, 'own'::text])))
);

-- One row per purchase line (a purchase, the sku it bought and the player it is for): what it granted, so that a refund
-- can take back exactly that; or, when the refund came first, a row already refunded, so the late
-- purchase grants nothing. An own-format refund naming no purchase that matched none is kept with
-- purchase_ref NULL until the next purchase of that player and sku consumes it.
CREATE TABLE store_purchases (
    id bigint NOT NULL,
    source text NOT NULL,
    purchase_ref text,
    sku text NOT NULL,
    account_id uuid NOT NULL,
    platform_id text NOT NULL,
    purchase_event_id text,
    days integer,
    entry_id uuid,
    entry_created boolean,
    previous_expires_at timestamp with time zone,
    purchased_at timestamp with time zone,
    refunded_at timestamp with time zone,
    refund_event_id text,
    CONSTRAINT store_purchases_source_check CHECK ((source = ANY (ARRAY['tebex'::text, 'own'::text])))
);

CREATE SEQUENCE store_purchases_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE store_purchases_id_seq OWNED BY store_purchases.id;

-- The community ban pool. account_id, submitted_by and note never leave the controller.
-- change_xid is the id of the transaction that last changed the row: the export feed orders by it
-- and serves only rows below the oldest running transaction, so a late commit is never skipped.
CREATE TABLE trust_entries (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    platform_id text NOT NULL,
    account_id uuid NOT NULL,
    submitted_by uuid,
    ban_id uuid,
    status text NOT NULL,
    category text NOT NULL,
    reason text NOT NULL,
    evidence jsonb DEFAULT '[]'::jsonb NOT NULL,
    note text,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone,
    decided_at timestamp with time zone,
    change_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    changed_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT trust_entries_category_check CHECK ((category = ANY (ARRAY['cheating'::text, 'exploiting'::text, 'griefing'::text, 'toxicity'::text, 'ban_evasion'::text, 'other'::text]))),
    CONSTRAINT trust_entries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'rejected'::text, 'active'::text, 'overturned'::text, 'expired'::text])))
);

-- Resume points of the export feed. A mark says: every change of a transaction below `horizon`
-- was committed before `after`. `since = T` resumes from the highest horizon of a mark taken
-- wholly before T, so a change that committed late is served again, never skipped.
CREATE TABLE trust_feed_marks (
    before timestamp with time zone NOT NULL,
    after timestamp with time zone NOT NULL,
    horizon xid8 NOT NULL
);

CREATE TABLE users (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    account_id uuid NOT NULL,
    username text NOT NULL,
    password_hash text NOT NULL,
    role text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    username_key text NOT NULL,
    CONSTRAINT users_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'admin'::text, 'moderator'::text, 'viewer'::text])))
);

ALTER TABLE ONLY event_claims ATTACH PARTITION event_claims_other DEFAULT;

ALTER TABLE ONLY audit_log ALTER COLUMN id SET DEFAULT nextval('audit_log_id_seq'::regclass);

ALTER TABLE ONLY store_purchases ALTER COLUMN id SET DEFAULT nextval('store_purchases_id_seq'::regclass);

ALTER TABLE ONLY accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (id);

ALTER TABLE ONLY api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);

ALTER TABLE ONLY api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

ALTER TABLE ONLY audit_log
    ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id);

ALTER TABLE ONLY ban_file_entries
    ADD CONSTRAINT ban_file_entries_pkey PRIMARY KEY (account_id, ban_id, added_at);

ALTER TABLE ONLY bans
    ADD CONSTRAINT bans_pkey PRIMARY KEY (id);

ALTER TABLE ONLY chat_bots
    ADD CONSTRAINT chat_bots_pkey PRIMARY KEY (id);

ALTER TABLE ONLY event_claims
    ADD CONSTRAINT event_claims_pkey PRIMARY KEY (sent_at, server_id, event_id);

ALTER TABLE ONLY event_claims_other
    ADD CONSTRAINT event_claims_other_pkey PRIMARY KEY (sent_at, server_id, event_id);

ALTER TABLE ONLY file_sync_requests
    ADD CONSTRAINT file_sync_requests_pkey PRIMARY KEY (server_id, kind);

ALTER TABLE ONLY game_file_syncs
    ADD CONSTRAINT game_file_syncs_pkey PRIMARY KEY (server_id, kind);

ALTER TABLE ONLY kills
    ADD CONSTRAINT kills_pkey PRIMARY KEY (server_id, ts);

ALTER TABLE ONLY partner_keys
    ADD CONSTRAINT partner_keys_key_hash_key UNIQUE (key_hash);

ALTER TABLE ONLY partner_keys
    ADD CONSTRAINT partner_keys_pkey PRIMARY KEY (id);

ALTER TABLE ONLY player_aliases
    ADD CONSTRAINT player_aliases_pkey PRIMARY KEY (alias_id);

ALTER TABLE ONLY player_links
    ADD CONSTRAINT player_links_pkey PRIMARY KEY (chat_user_id);

ALTER TABLE ONLY players
    ADD CONSTRAINT players_pkey PRIMARY KEY (platform_id);

ALTER TABLE ONLY players
    ADD CONSTRAINT players_service_id_key UNIQUE (service_id);

ALTER TABLE ONLY priority_queue
    ADD CONSTRAINT priority_queue_pkey PRIMARY KEY (id);

ALTER TABLE ONLY server_commands
    ADD CONSTRAINT server_commands_pkey PRIMARY KEY (id);

ALTER TABLE ONLY server_commands
    ADD CONSTRAINT server_commands_seq_key UNIQUE (seq);

ALTER TABLE ONLY server_metrics
    ADD CONSTRAINT server_metrics_pkey PRIMARY KEY (server_id, at);

ALTER TABLE ONLY server_players
    ADD CONSTRAINT server_players_pkey PRIMARY KEY (server_id, platform_id);

ALTER TABLE ONLY server_restart_schedules
    ADD CONSTRAINT server_restart_schedules_pkey PRIMARY KEY (server_id);

ALTER TABLE ONLY servers
    ADD CONSTRAINT servers_ingest_token_hash_key UNIQUE (ingest_token_hash);

ALTER TABLE ONLY servers
    ADD CONSTRAINT servers_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY store_events
    ADD CONSTRAINT store_events_pkey PRIMARY KEY (source, event_id);

ALTER TABLE ONLY store_purchases
    ADD CONSTRAINT store_purchases_pkey PRIMARY KEY (id);

ALTER TABLE ONLY trust_entries
    ADD CONSTRAINT trust_entries_pkey PRIMARY KEY (id);

ALTER TABLE ONLY users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);

CREATE UNIQUE INDEX accounts_one_operator_idx ON accounts USING btree (is_operator) WHERE is_operator;

CREATE INDEX api_keys_account_idx ON api_keys USING btree (account_id);

CREATE INDEX audit_log_account_idx ON audit_log USING btree (account_id, id DESC);

CREATE INDEX ban_file_entries_list_idx ON ban_file_entries USING btree (account_id, added_at DESC, banned_at DESC, ban_id);

CREATE UNIQUE INDEX ban_file_entries_open_idx ON ban_file_entries USING btree (ban_id) WHERE (removed_at IS NULL);

CREATE INDEX bans_account_banned_idx ON bans USING btree (account_id, banned_at DESC, id);

CREATE INDEX bans_account_dayz_idx ON bans USING btree (account_id, dayz_id) WHERE (dayz_id IS NOT NULL);

CREATE INDEX bans_account_idx ON bans USING btree (account_id);

CREATE INDEX bans_account_platform_idx ON bans USING btree (account_id, platform_id);

CREATE INDEX bans_expiry_idx ON bans USING btree (expires_at) WHERE ((expires_at IS NOT NULL) AND (lifted_at IS NULL));

CREATE INDEX bans_in_force_idx ON bans USING btree (account_id, banned_at, id) WHERE (lifted_at IS NULL);

CREATE INDEX chat_bots_account_idx ON chat_bots USING btree (account_id) WHERE (deleted_at IS NULL);

CREATE INDEX event_claims_received_at ON ONLY event_claims USING brin (received_at) WITH (autosummarize='on');

CREATE INDEX event_claims_other_received_at_idx ON event_claims_other USING brin (received_at) WITH (autosummarize='on');

CREATE INDEX player_aliases_platform_idx ON player_aliases USING btree (platform_id);

CREATE INDEX player_links_platform_idx ON player_links USING btree (platform_id);

CREATE UNIQUE INDEX players_be_guid_idx ON players USING btree (be_guid) WHERE (be_guid IS NOT NULL);

CREATE UNIQUE INDEX players_dayz_id_idx ON players USING btree (dayz_id) WHERE (dayz_id IS NOT NULL);

CREATE INDEX priority_queue_account_idx ON priority_queue USING btree (account_id, created_at DESC, id);

CREATE INDEX priority_queue_expiry_idx ON priority_queue USING btree (expires_at) WHERE (expires_at IS NOT NULL);

CREATE UNIQUE INDEX priority_queue_player_scope_idx ON priority_queue USING btree (account_id, platform_id, scope_key);

CREATE INDEX server_commands_history_idx ON server_commands USING btree (server_id, seq);

CREATE INDEX server_commands_open_idx ON server_commands USING btree (server_id, seq) WHERE (status = ANY (ARRAY['pending'::text, 'sent'::text]));

CREATE UNIQUE INDEX server_commands_scheduled_idx ON server_commands USING btree (server_id, scheduled_for) WHERE (scheduled_for IS NOT NULL);

CREATE INDEX server_metrics_at_idx ON server_metrics USING btree (at);

CREATE INDEX server_players_platform_idx ON server_players USING btree (platform_id);

CREATE INDEX server_restart_schedules_next_idx ON server_restart_schedules USING btree (next_at) WHERE enabled;

CREATE INDEX servers_account_idx ON servers USING btree (account_id);

CREATE INDEX sessions_user_idx ON sessions USING btree (user_id);

CREATE INDEX store_purchases_player_idx ON store_purchases USING btree (source, platform_id, sku, id DESC);

CREATE UNIQUE INDEX store_purchases_ref_idx ON store_purchases USING btree (source, purchase_ref, sku, platform_id) WHERE (purchase_ref IS NOT NULL);

CREATE UNIQUE INDEX trust_entries_ban_idx ON trust_entries USING btree (ban_id) WHERE ((ban_id IS NOT NULL) AND (status = ANY (ARRAY['pending'::text, 'active'::text])));

CREATE INDEX trust_entries_changed_idx ON trust_entries USING btree (changed_at);

CREATE INDEX trust_entries_due_idx ON trust_entries USING btree (expires_at) WHERE (status = 'active'::text);

CREATE INDEX trust_entries_feed_idx ON trust_entries USING btree (change_xid, id);

CREATE INDEX trust_entries_player_idx ON trust_entries USING btree (platform_id);

CREATE INDEX trust_feed_marks_after_idx ON trust_feed_marks USING btree (after);

CREATE INDEX users_account_idx ON users USING btree (account_id);

CREATE UNIQUE INDEX users_username_key_idx ON users USING btree (username_key) WHERE (deleted_at IS NULL);

ALTER INDEX event_claims_pkey ATTACH PARTITION event_claims_other_pkey;

ALTER INDEX event_claims_received_at ATTACH PARTITION event_claims_other_received_at_idx;

ALTER TABLE ONLY api_keys
    ADD CONSTRAINT api_keys_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY audit_log
    ADD CONSTRAINT audit_log_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY bans
    ADD CONSTRAINT bans_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY chat_bots
    ADD CONSTRAINT chat_bots_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY file_sync_requests
    ADD CONSTRAINT file_sync_requests_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers(id);

ALTER TABLE ONLY game_file_syncs
    ADD CONSTRAINT game_file_syncs_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers(id);

ALTER TABLE ONLY player_aliases
    ADD CONSTRAINT player_aliases_platform_id_fkey FOREIGN KEY (platform_id) REFERENCES players(platform_id);

ALTER TABLE ONLY priority_queue
    ADD CONSTRAINT priority_queue_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY server_commands
    ADD CONSTRAINT server_commands_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY server_commands
    ADD CONSTRAINT server_commands_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers(id);

ALTER TABLE ONLY server_restart_schedules
    ADD CONSTRAINT server_restart_schedules_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY server_restart_schedules
    ADD CONSTRAINT server_restart_schedules_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers(id);

ALTER TABLE ONLY servers
    ADD CONSTRAINT servers_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY sessions
    ADD CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id);

ALTER TABLE ONLY store_purchases
    ADD CONSTRAINT store_purchases_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY trust_entries
    ADD CONSTRAINT trust_entries_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

ALTER TABLE ONLY trust_entries
    ADD CONSTRAINT trust_entries_ban_id_fkey FOREIGN KEY (ban_id) REFERENCES bans(id);

ALTER TABLE ONLY users
    ADD CONSTRAINT users_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id);

-- Down Migration

-- A baseline is not taken down: drop the schema (or the database) instead.
