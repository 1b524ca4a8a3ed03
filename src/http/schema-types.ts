// The types of the JSON Schemas in schemas/, made by scripts/schema-types.ts
// (npm run schemas:types): change a schema, then run it; never edit this file by hand.

/**
 * A player's platform id: a Steam64 (17 digits, an individual account: 76561197960265728 to 76561202255233023), a DayZ ID as the game writes it in its admin logs (base64url of SHA-256 of the Steam64, 44 characters ending in '='), or a console id as the game logs it (Xbox: 40 upper-case hex characters). A DayZ ID whose Steam64 is known is answered as that Steam64.
 */
export type PlatformId = string;
export type BanRecordActor = {
  id: string | null;
  name: string | null;
} | null;
/**
 * One game-server event. Unknown fields are ignored; player coordinates (x, y, z) are dropped and never stored.
 */
export type IngestEvent =
  | {
      /**
       * unique per server; the event sent again (same id, same ts) counts once
       */
      id: string;
      /**
       * ISO-8601 date-time or epoch milliseconds; more than 60 s in the future is taken as arrival time
       */
      ts: string | number;
      type: 'server.status';
      online: boolean;
      map?: string;
      gameVersion?: string;
      players?: number;
      fps?: number;
      uptimeSeconds?: number;
      [k: string]: unknown;
    }
  | {
      /**
       * unique per server; the event sent again (same id, same ts) counts once
       */
      id: string;
      /**
       * ISO-8601 date-time or epoch milliseconds; more than 60 s in the future is taken as arrival time
       */
      ts: string | number;
      type: 'server.started';
      [k: string]: unknown;
    }
  | {
      /**
       * unique per server; the event sent again (same id, same ts) counts once
       */
      id: string;
      /**
       * ISO-8601 date-time or epoch milliseconds; more than 60 s in the future is taken as arrival time
       */
      ts: string | number;
      type: 'player.connect';
      platformId: PlatformId;
      name: IngestEventName;
      [k: string]: unknown;
    }
  | {
      /**
       * unique per server; the event sent again (same id, same ts) counts once
       */
      id: string;
      /**
       * ISO-8601 date-time or epoch milliseconds; more than 60 s in the future is taken as arrival time
       */
      ts: string | number;
      type: 'player.disconnect';
      platformId: PlatformId;
      name: IngestEventName;
      [k: string]: unknown;
    }
  | {
      /**
       * unique per server; the event sent again (same id, same ts) counts once
       */
      id: string;
      /**
       * ISO-8601 date-time or epoch milliseconds; more than 60 s in the future is taken as arrival time
       */
      ts: string | number;
      type: 'player.heartbeat';
      platformId: PlatformId;
      name: IngestEventName;
      [k: string]: unknown;
    }
  | {
      /**
       * unique per server; the event sent again (same id, same ts) counts once
       */
      id: string;
      /**
       * ISO-8601 date-time or epoch milliseconds; more than 60 s in the future is taken as arrival time
       */
      ts: string | number;
      type: 'kill';
      killer: {
        platformId: PlatformId;
        name: IngestEventName;
        [k: string]: unknown;
      };
      victim: {
        platformId: PlatformId;
        name: IngestEventName;
        [k: string]: unknown;
      };
      weapon: string;
      distance: number;
      isHeadshot: boolean;
      hitZone?: string;
      [k: string]: unknown;
    }
  | {
      /**
       * unique per server; the event sent again (same id, same ts) counts once
       */
      id: string;
      /**
       * ISO-8601 date-time or epoch milliseconds; more than 60 s in the future is taken as arrival time
       */
      ts: string | number;
      type: 'shots';
      platformId: PlatformId;
      fired: number;
      hits: number;
      [k: string]: unknown;
    }
  | {
      /**
       * unique per server; the event sent again (same id, same ts) counts once
       */
      id: string;
      /**
       * ISO-8601 date-time or epoch milliseconds; more than 60 s in the future is taken as arrival time
       */
      ts: string | number;
      type: 'death';
      platformId: PlatformId;
      name: IngestEventName;
      /**
       * what killed the player: a death with no player killer; it counts in the player's deaths, never as a kill
       */
      cause: 'infected' | 'animal' | 'vehicle' | 'fall' | 'explosion' | 'suicide' | 'bleeding' | 'environment' | 'other';
      [k: string]: unknown;
    };
export type IngestEventName = string;
/**
 * The body of POST /api/store/webhook: a Tebex webhook (signed with X-Signature) or the service's own format (signed with X-Store-Signature).
 */
export type StoreEvent = StoreEventTebex | StoreEventOwn;
export type StorePaymentTebexUsername = {
  id?: string | null;
  username?: string | null;
  [k: string]: unknown;
} | null;
/**
 * An event an endpoint can subscribe to. kill, server.online, server.offline and player.watched.joined (a player the community watches joining one of its servers) are events of a server (an endpoint's serverIds filter them); the others are the community's.
 */
export type WebhookEventType =
  | 'kill'
  | 'ban.created'
  | 'ban.lifted'
  | 'server.online'
  | 'server.offline'
  | 'player.watched.joined'
  | 'queue.granted'
  | 'trust.entry.approved';

/**
 * Each schema of schemas/ by its file name: bodyOf and queryParser take their type from it.
 */
export interface SchemaTypes {
  'account-create.json': AccountCreate;
  'account-created.json': AccountCreated;
  'account-list.json': AccountList;
  'account-settings-update.json': AccountSettingsUpdate;
  'account-settings.json': AccountSettings;
  'active-bans.json': ActiveBans;
  'agent-commands.json': AgentCommands;
  'api-key-create.json': ApiKeyCreate;
  'api-key-created.json': ApiKeyCreated;
  'api-key-list.json': ApiKeyList;
  'api-key.json': ApiKey;
  'audit-entry.json': AuditEntry;
  'audit-page.json': AuditPage;
  'ban-create.json': BanCreate;
  'ban-import.json': BanImport;
  'ban-list.json': BanList;
  'ban-record-page.json': BanRecordPage;
  'ban-record.json': BanRecord;
  'ban-update.json': BanUpdate;
  'ban.json': Ban;
  'chat-action-result.json': ChatActionResult;
  'chat-action.json': ChatAction;
  'chat-bot-create.json': ChatBotCreate;
  'chat-bot-created.json': ChatBotCreated;
  'chat-bot-list.json': ChatBotList;
  'chat-bot.json': ChatBot;
  'chat-params-ban-create.json': ChatParamsBanCreate;
  'chat-params-ban-revoke.json': ChatParamsBanRevoke;
  'chat-params-link.json': ChatParamsLink;
  'chat-params-queue-add.json': ChatParamsQueueAdd;
  'chat-params-queue-remove.json': ChatParamsQueueRemove;
  'chat-params-trust-lookup.json': ChatParamsTrustLookup;
  'chat-settings.json': ChatSettings;
  'chat-user-role-set.json': ChatUserRoleSet;
  'chat-user-role.json': ChatUserRole;
  'chat-user-roles.json': ChatUserRoles;
  'command-result.json': CommandResult;
  'data-api-switch.json': DataApiSwitch;
  'error.json': ErrorBody;
  'health-live.json': Liveness;
  'health-ready.json': Readiness;
  'health.json': Health;
  'ingest-batch.json': IngestBatch;
  'ingest-event.json': IngestEvent;
  'ingest-result.json': IngestResult;
  'ingest-token.json': IngestToken;
  'kill.json': Kill;
  'killfeed-page.json': KillfeedPage;
  'leaderboard-entry.json': LeaderboardEntry;
  'leaderboard-page.json': LeaderboardPage;
  'limits.json': Limits;
  'login-result.json': LoginResult;
  'login.json': Login;
  'managed-server-list.json': ManagedServerList;
  'managed-server.json': ManagedServer;
  'metrics-page.json': MetricsPage;
  'online-player.json': OnlinePlayer;
  'online-players.json': OnlinePlayers;
  'partner-key-create.json': PartnerKeyCreate;
  'partner-key-created.json': PartnerKeyCreated;
  'partner-key-list.json': PartnerKeyList;
  'partner-key.json': PartnerKey;
  'platform-id.json': PlatformId;
  'player-ids.json': PlayerIds;
  'player-note-create.json': PlayerNoteCreate;
  'player-note-list.json': PlayerNoteList;
  'player-note.json': PlayerNote;
  'player-profile.json': PlayerProfile;
  'player-search.json': PlayerSearch;
  'player-watch.json': PlayerWatch;
  'query-audit.json': AuditQuery;
  'query-ban-search.json': BanSearchQuery;
  'query-bans.json': BansQuery;
  'query-command-wait.json': CommandWaitQuery;
  'query-commands.json': CommandsQuery;
  'query-kills.json': KillsQuery;
  'query-leaderboard.json': LeaderboardQuery;
  'query-player-search.json': PlayerSearchQuery;
  'query-queue.json': QueueQuery;
  'query-server-metrics.json': ServerMetricsQuery;
  'query-trust-export.json': TrustExportQuery;
  'query-trust-submissions.json': TrustSubmissionsQuery;
  'queue-entry-create.json': QueueEntryCreate;
  'queue-entry-update.json': QueueEntryUpdate;
  'queue-entry.json': QueueEntry;
  'queue-page.json': QueuePage;
  'rebuild-result.json': RebuildResult;
  'restart-schedule-set.json': RestartScheduleSet;
  'restart-schedule.json': RestartSchedule;
  'server-command-list.json': ServerCommandList;
  'server-command.json': ServerCommand;
  'server-create.json': ServerCreate;
  'server-created.json': ServerCreated;
  'server-kick.json': ServerKick;
  'server-list.json': ServerList;
  'server-message.json': ServerMessage;
  'server-online-players.json': ServerOnlinePlayers;
  'server-restart.json': ServerRestart;
  'server-status.json': ServerStatus;
  'server-summary.json': ServerSummary;
  'server-update.json': ServerUpdate;
  'session.json': Session;
  'setup-admin.json': SetupAdmin;
  'setup-status.json': SetupStatus;
  'sign-in-state.json': SignInState;
  'store-event-own.json': StoreEventOwn;
  'store-event-tebex.json': StoreEventTebex;
  'store-event.json': StoreEvent;
  'store-payment-tebex.json': StorePaymentTebex;
  'store-products.json': StoreProducts;
  'store-webhook-result.json': StoreWebhookResult;
  'trust-discovery.json': TrustDiscovery;
  'trust-export-page.json': TrustExportPage;
  'trust-export-row.json': TrustExportRow;
  'trust-public-entries.json': TrustPublicEntries;
  'trust-score.json': TrustScore;
  'trust-submission-create.json': TrustSubmissionCreate;
  'trust-submission-list.json': TrustSubmissionList;
  'trust-submission.json': TrustSubmission;
  'user-create.json': UserCreate;
  'user-list.json': UserList;
  'user-update.json': UserUpdate;
  'user.json': User;
  'webhook-create.json': WebhookCreate;
  'webhook-created.json': WebhookCreated;
  'webhook-deliveries.json': WebhookDeliveries;
  'webhook-event-type.json': WebhookEventType;
  'webhook-list.json': WebhookList;
  'webhook-test-queued.json': WebhookTestQueued;
  'webhook-update.json': WebhookUpdate;
  'webhook.json': Webhook;
}
/**
 * A new community with its owner.
 */
export interface AccountCreate {
  accountName: string;
  username: string;
  password: string;
}
export interface AccountCreated {
  account: {
    id: string;
    name: string;
    createdAt: string;
  };
  owner: User;
}
export interface User {
  id: string;
  accountId: string;
  username: string;
  role: 'owner' | 'admin' | 'moderator' | 'viewer';
  createdAt: string;
}
/**
 * Every community of the network, oldest first (the operator's is the first).
 */
export interface AccountList {
  accounts: {
    id: string;
    name: string;
    createdAt: string;
    isOperator: boolean;
    /**
     * live (not revoked) servers
     */
    servers: number;
  }[];
}
/**
 * The settings to change; those left out stay as they are.
 */
export interface AccountSettingsUpdate {
  /**
   * an IANA zone (Europe/Berlin, America/New_York, UTC); an unknown zone is a 400
   */
  timeZone?: string;
  clock?: '24h' | '12h';
}
/**
 * How the community's dashboard shows times.
 */
export interface AccountSettings {
  /**
   * an IANA zone (Europe/Berlin, America/New_York, UTC); every time in the dashboard is shown in it, with its zone; default UTC
   */
  timeZone: string;
  /**
   * 24-hour (14:05) or 12-hour (2:05 PM) times; default 24h
   */
  clock: '24h' | '12h';
}
/**
 * The bans in force on a server, for its agent to kick a banned player the moment BattlEye verifies them. Every id form known: a Steam64 ban carries its DayZ ID and BattlEye GUID; a DayZ-ID or console ban its own id alone.
 */
export interface ActiveBans {
  bans: {
    banId: string;
    platformId: PlatformId;
    steam64: string | null;
    dayzId: string | null;
    beGuid: string | null;
    reason: string | null;
    expiresAt: string | null;
  }[];
}
/**
 * Commands handed to the agent by its long poll, oldest first; each is now `sent`.
 */
export interface AgentCommands {
  /**
   * @minItems 1
   */
  commands: ServerCommand[];
}
/**
 * A command for a server's agent, which carries it out on the game host through BattlEye RCon: restart (warnings, lock, files, shutdown), message (to every player) or kick. pending: waiting for the agent; sent: handed to it (an agent restarted before answering gets it again after 60 s); done or failed: the agent's answer; expired: no agent took it within 10 minutes (or, once taken, it was not answered in time).
 */
export interface ServerCommand {
  id: string;
  serverId: string;
  kind: 'restart' | 'message' | 'kick';
  params: RestartParams | MessageParams | KickParams;
  status: 'pending' | 'sent' | 'done' | 'failed' | 'expired';
  /**
   * who asked: a user, a chat user through the bot, or the service itself (a ban's kick, a restart schedule)
   */
  requestedBy: {
    type: 'user' | 'chat' | 'system';
    id: string | null;
    name: string | null;
  };
  createdAt: string;
  /**
   * not taken by an agent by then: expired
   */
  expiresAt: string;
  /**
   * first handed to the agent
   */
  sentAt: string | null;
  /**
   * a restart taken by the agent: when the server shuts down (sentAt + delaySeconds); null otherwise
   */
  dueAt: string | null;
  /**
   * seconds from this answer to dueAt (negative once past); null without dueAt
   */
  dueInSeconds: number | null;
  finishedAt: string | null;
  /**
   * what the agent reported, or why the command expired
   */
  detail: string | null;
}
export interface RestartParams {
  delaySeconds: number;
  message: string | null;
}
export interface MessageParams {
  text: string;
}
export interface KickParams {
  platformId: PlatformId;
  reason: string | null;
}
export interface ApiKeyCreate {
  name: string;
  tier?: 'standard' | 'partner';
}
export interface ApiKeyCreated {
  id: string;
  name: string;
  tier: 'standard' | 'partner';
  /**
   * the raw key (svc_...), shown once
   */
  key: string;
  createdAt: string;
}
export interface ApiKeyList {
  keys: ApiKey[];
}
export interface ApiKey {
  id: string;
  name: string;
  tier: 'standard' | 'partner';
  createdAt: string;
  revokedAt: string | null;
}
export interface AuditEntry {
  /**
   * opaque, increasing
   */
  id: string;
  at: string;
  actor: {
    type: 'user' | 'system' | 'chat';
    id: string | null;
    name: string | null;
  };
  action: string;
  target: {
    type: string | null;
    id: string | null;
    /**
     * the target's name now: a server's, user's, API key's, chat bot's, community's or partner key's; for a ban, queue entry, pool entry or player, the player's (the name given with it, else the one last seen on the community's servers); null when there is none
     */
    name: string | null;
  };
  ip: string | null;
  details: {
    [k: string]: unknown;
  };
}
export interface AuditPage {
  entries: AuditEntry[];
  /**
   * pass as before for older entries
   */
  nextCursor: string | null;
}
/**
 * A new ban of every server of the account. No expiresAt and no durationMinutes: permanent.
 */
export interface BanCreate {
  platformId: PlatformId;
  playerName?: string | null;
  reason?: string | null;
  /**
   * when the ban ends; null or absent: permanent
   */
  expiresAt?: string | null;
  /**
   * the ban ends this many minutes from now
   */
  durationMinutes?: number;
}
/**
 * Copies a ban another community shared by its id (source import).
 */
export interface BanImport {
  banId: string;
}
/**
 * The bans in the server's ban file as of its last sync, newest in the file first (by when each entered the community's ban file), then newest ban.
 */
export interface BanList {
  bans: Ban[];
}
export interface Ban {
  platformId: PlatformId;
  playerName: string | null;
  reason: string | null;
  source: 'manual' | 'import' | 'cloud' | null;
  /**
   * true, with expiresAt null, for a ban without expiry
   */
  permanent: boolean;
  bannedAt: string | null;
  expiresAt: string | null;
}
export interface BanRecordPage {
  bans: BanRecord[];
  /**
   * bans matching the search
   */
  total: number;
  limit: number;
  offset: number;
}
/**
 * A ban as its community manages it. The id is shareable: another community imports the ban by it.
 */
export interface BanRecord {
  id: string;
  platformId: PlatformId;
  playerName: string | null;
  reason: string | null;
  source: 'manual' | 'import' | 'cloud';
  permanent: boolean;
  /**
   * in force now: not lifted, and permanent or not yet expired
   */
  active: boolean;
  bannedAt: string;
  expiresAt: string | null;
  createdBy: BanRecordActor;
  liftedAt: string | null;
  liftedBy: BanRecordActor;
  /**
   * the shared ban this one was copied from
   */
  importedFrom: string | null;
  updatedAt: string | null;
}
/**
 * Changes a ban that is not lifted. expiresAt null makes it permanent; durationMinutes counts from now.
 */
export interface BanUpdate {
  playerName?: string | null;
  reason?: string | null;
  expiresAt?: string | null;
  durationMinutes?: number;
}
export interface ChatActionResult {
  ok: true;
  action: string;
  result: {
    /**
     * a short line a bot can print as it is
     */
    text: string;
    [k: string]: unknown;
  };
}
/**
 * A chat bot's call. Signed with X-Chat-Timestamp (unix seconds) and X-Chat-Signature (sha256=<hex HMAC-SHA256(secret, "timestamp.action.chatUserId")>), valid 300 s either way; unsigned calls run with the chat-bot role only.
 */
export interface ChatAction {
  /**
   * server.status, players.list, trust.lookup, ban.create, ban.revoke, queue.add, queue.remove, server.restart or link
   */
  action: string;
  /**
   * the chat-platform (Discord) user the bot acts for
   */
  chatUserId: string;
  /**
   * the server the action is about; required by the server and moderation actions
   */
  serverId?: string;
  /**
   * the action's parameters
   */
  params?: {
    [k: string]: unknown;
  };
}
export interface ChatBotCreate {
  name: string;
}
export interface ChatBotCreated {
  bot: ChatBot;
  /**
   * shown once: the bot signs its calls with it
   */
  secret: string;
}
/**
 * A chat bot of the community: it signs its calls with its secret (shown once, at creation or rotation) and names itself in X-Chat-Bot.
 */
export interface ChatBot {
  /**
   * what the bot sends in X-Chat-Bot
   */
  id: string;
  name: string;
  createdAt: string;
  rotatedAt: string | null;
  /**
   * after a rotation, the secret before is still accepted until then (24 h)
   */
  previousSecretValidUntil: string | null;
}
export interface ChatBotList {
  bots: ChatBot[];
}
export interface ChatParamsBanCreate {
  platformId: PlatformId;
  reason?: string;
  /**
   * absent: permanent
   */
  durationMinutes?: number;
}
export interface ChatParamsBanRevoke {
  banId: string;
}
/**
 * Ties the calling chat user to a player the network knows, so trust lookups by discord:<user id> find them. Signed calls only.
 */
export interface ChatParamsLink {
  platformId: PlatformId;
}
export interface ChatParamsQueueAdd {
  platformId: PlatformId;
  /**
   * absent: permanent; an existing entry is extended
   */
  durationDays?: number;
}
export interface ChatParamsQueueRemove {
  platformId: PlatformId;
}
export interface ChatParamsTrustLookup {
  /**
   * any identifier the public trust lookup takes: Steam64, STEAM_X:Y:Z, service UUID, DayZ ID, BattlEye GUID, console id, discord:<user id>
   */
  identifier: string;
}
export interface ChatSettings {
  /**
   * refuse chat calls not signed by one of the community's bots
   */
  requireSignature: boolean;
}
export interface ChatUserRoleSet {
  role: 'owner' | 'admin' | 'moderator' | 'viewer' | 'chat-bot';
}
export interface ChatUserRole {
  chatUserId: string;
  role: 'owner' | 'admin' | 'moderator' | 'viewer' | 'chat-bot';
}
export interface ChatUserRoles {
  mappings: ChatUserRole[];
}
/**
 * The agent's answer to a command it was handed.
 */
export interface CommandResult {
  status: 'done' | 'failed';
  detail?: string;
}
export interface DataApiSwitch {
  enabled: boolean;
}
/**
 * Body of every error answer.
 */
export interface ErrorBody {
  /**
   * machine-readable code
   */
  error: string;
  /**
   * human-readable text
   */
  message: string;
  statusCode: number;
  /**
   * quote it to support when reporting a failure
   */
  requestId?: string;
  /**
   * seconds to wait, on 429 answers
   */
  retryAfter?: number;
}
/**
 * The process runs and answers; it checks no store.
 */
export interface Liveness {
  status: 'alive';
}
/**
 * Whether this process should be sent requests: 200 with status ready, else 503 with status not_ready and what is missing.
 */
export interface Readiness {
  status: 'ready' | 'not_ready';
  /**
   * the primary answers
   */
  postgres: 'up' | 'down';
  redis: 'up' | 'down';
  /**
   * applied: the schema has run every migration of this build; pending: some are not run yet; unknown: PostgreSQL did not answer
   */
  migrations: 'applied' | 'pending' | 'unknown';
  /**
   * the process is shutting down: it finishes what is in flight and takes nothing new
   */
  draining: boolean;
  /**
   * the read replica (DATABASE_READ_URL), reported only: while it is down its reads go to the primary, so it never makes the process unready; none when none is configured
   */
  readReplica: 'up' | 'down' | 'none';
}
export interface Health {
  status: 'ok' | 'degraded';
  postgres: 'up' | 'down';
  redis: 'up' | 'down';
}
export interface IngestBatch {
  /**
   * each item is an IngestEvent, checked one by one
   *
   * @minItems 1
   * @maxItems 1000
   */
  events: {
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: {
    index: number;
    error: string;
  }[];
}
export interface IngestToken {
  /**
   * shown once; the previous token stops working
   */
  ingestToken: string;
}
export interface Kill {
  /**
   * unique per server at microsecond precision
   */
  ts: string;
  killerPlatformId: PlatformId;
  killerName: string;
  victimPlatformId: PlatformId;
  victimName: string;
  weapon: string;
  /**
   * metres
   */
  distance: number;
  isHeadshot: boolean;
  hitZone: string | null;
}
/**
 * Newest first.
 */
export interface KillfeedPage {
  kills: Kill[];
  /**
   * pass as before for the next older page; null when no older kill exists
   */
  nextCursor: string | null;
}
export interface LeaderboardEntry {
  rank: number;
  platformId: PlatformId;
  name: string;
  kills: number;
  deaths: number;
  headshots: number;
  /**
   * kills / max(deaths, 1), 2 decimals
   */
  kd: number;
  /**
   * kills x 2
   */
  points: number;
  /**
   * metres; null without recorded kills
   */
  meanKillDistance: number | null;
  playMinutes: number;
}
export interface LeaderboardPage {
  /**
   * the full ranking size
   */
  total: number;
  sort: 'points' | 'kd' | 'kills';
  players: LeaderboardEntry[];
}
/**
 * The tiers of Data API keys and partner keys and the per-minute rate limits, as this instance is configured (RATE_* variables); every limit is a sliding window of one minute.
 */
export interface Limits {
  /**
   * Data API keys: each tier's requests a minute, per key, and the most rows one page may ask for
   */
  apiKeyTiers: {
    tier: 'standard' | 'partner';
    requestsPerMinute: number;
    maxPageSize: number;
  }[];
  /**
   * partner keys of the trust export: each tier's pages a minute, per key, and the most rows one page may ask for
   */
  partnerKeyTiers: {
    tier: 'basic' | 'premium';
    requestsPerMinute: number;
    maxPageSize: number;
  }[];
  /**
   * the other limits, requests a minute; null: not enforced (CONTROLLER_RATE_LIMIT=false turns the controller's per-IP limits off)
   */
  perMinute: {
    /**
     * per IP, every /api path but the Data API, map tiles and the calls made with an ingest token
     */
    controller: number | null;
    /**
     * sign-in and setup, per IP
     */
    signIn: number | null;
    /**
     * chat-bot actions, per IP
     */
    chatAction: number | null;
    /**
     * public trust lookups, per IP
     */
    trustLookup: number;
    /**
     * ingestion and the agent's calls, per server token
     */
    ingest: number;
  };
}
export interface LoginResult {
  /**
   * session JWT; also set as the auth-token cookie
   */
  token: string;
  expiresAt: string;
  user: {
    id: string;
    username: string;
    role: 'owner' | 'admin' | 'moderator' | 'viewer';
    accountId: string;
  };
}
export interface Login {
  username: string;
  password: string;
}
export interface ManagedServerList {
  servers: ManagedServer[];
}
/**
 * A server as its admins manage it (no ingest token: it is shown once, at creation or rotation).
 */
export interface ManagedServer {
  id: string;
  name: string;
  banFilePath: string | null;
  priorityFilePath: string | null;
  createdAt: string;
  online: boolean;
  lastSeenAt: string | null;
  map: string | null;
  /**
   * player count of the newest metrics sample
   */
  players: number | null;
  fps: number | null;
  /**
   * time of the newest metrics sample
   */
  metricsAt: string | null;
}
/**
 * Stored server.status samples with from < at <= to, oldest first.
 */
export interface MetricsPage {
  from: string;
  to: string;
  samples: {
    at: string;
    online: boolean;
    players: number | null;
    fps: number | null;
    uptimeSeconds: number | null;
  }[];
  /**
   * pass as from (with the same to) for the next page; null when the range holds no more
   */
  nextCursor: string | null;
}
/**
 * Identity only: coordinates are never exposed.
 */
export interface OnlinePlayer {
  platformId: PlatformId;
  name: string;
}
/**
 * Players active in the last 90 seconds.
 */
export interface OnlinePlayers {
  players: OnlinePlayer[];
  count: number;
}
export interface PartnerKeyCreate {
  name: string;
  tier?: 'basic' | 'premium';
}
export interface PartnerKeyCreated {
  id: string;
  name: string;
  tier: 'basic' | 'premium';
  createdAt: string;
  /**
   * shown once
   */
  key: string;
}
export interface PartnerKeyList {
  keys: PartnerKey[];
}
export interface PartnerKey {
  id: string;
  name: string;
  tier: 'basic' | 'premium';
  createdAt: string;
  revokedAt: string | null;
}
/**
 * Every id form the service knows for a player. platformId is the id the service keeps the player under (the Steam64 once known; else the DayZ ID or console id the game logged); the others are derived from it or learnt (a console id an admin linked, a DayZ ID merged into its Steam64).
 */
export interface PlayerIds {
  platformId: PlatformId;
  /**
   * the Steam64, when known
   */
  steam64: string | null;
  /**
   * STEAM_0:Y:Z, the form old tools print (from the Steam64)
   */
  steamLegacy: string | null;
  /**
   * the DayZ ID the game writes in its admin logs
   */
  dayzId: string | null;
  /**
   * the BattlEye GUID (from the Steam64)
   */
  battleyeGuid: string | null;
  /**
   * the UUID the trust network publishes; null for a player never seen on any server
   */
  serviceId: string | null;
  /**
   * console ids of the player: its own, or linked to its Steam64
   */
  consoleIds: string[];
}
export interface PlayerNoteCreate {
  /**
   * the note's text: 1 to 2,000 characters, not only spaces
   */
  body: string;
}
/**
 * The account's notes about a player, newest first (at most 200 a player).
 */
export interface PlayerNoteList {
  platformId: string;
  notes: PlayerNote[];
}
/**
 * A private note of the account about a player. Seen only by the account's users (servers.read); never in the Data API, the trust network or a partner's answer.
 */
export interface PlayerNote {
  id: string;
  platformId: string;
  body: string;
  createdBy: {
    id: string | null;
    name: string | null;
  } | null;
  createdAt: string;
}
/**
 * A player as the signed-in user's account sees them. Names, servers, sessions, kills, bans, queue entries, notes and the watch flag are this account's only. A player the account's servers never saw but the network knows (a pool entry, or play on another community's servers) answers with seenByAccount false: the ids the identifier itself gives, the trust score and pool entries, and the account's own records (notes, watch, bans, queue) if any.
 */
export interface PlayerProfile {
  ids: PlayerIds;
  /**
   * chat-platform (Discord) user ids linked to the player; empty for a player the account has no record of
   */
  chatIds: string[];
  /**
   * seen on one of the account's live servers
   */
  seenByAccount: boolean;
  /**
   * the newest name on the account's servers
   */
  lastName: string | null;
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  /**
   * every name seen on the account's servers, the most recently seen first; first seen to within a batch of events
   */
  names: {
    name: string;
    firstSeenAt: string;
    lastSeenAt: string;
  }[];
  /**
   * each live server of the account the player has totals on, the most recently seen first
   */
  servers: PlayerServer[];
  /**
   * the account's bans of the player (either id form), lifted ones included, newest first, each with its audit history
   */
  bans: {
    ban: BanRecord;
    /**
     * newest first
     */
    history: AuditEntry[];
  }[];
  queue: {
    /**
     * the player's entries in the account's priority queue
     */
    entries: QueueEntry[];
    /**
     * audit entries of the player's queue entries, removed ones included, newest first (at most 100)
     */
    history: AuditEntry[];
  };
  trust: {
    /**
     * the public trust score, as GET /api/v1/trust/{identifier} answers it; null for a player the network has neither seen nor had reported
     */
    score: TrustScore | null;
    pool: TrustPublicEntries;
    /**
     * the account's own pool submissions about the player, with reason and note; null when the role lacks trust.submit
     */
    ownSubmissions: TrustSubmission[] | null;
  };
  /**
   * the account's private notes, newest first
   */
  notes: PlayerNote[];
  watch: PlayerWatch;
}
export interface PlayerServer {
  serverId: string;
  serverName: string;
  /**
   * the player's name there now
   */
  name: string | null;
  /**
   * a presence within the last 90 seconds
   */
  online: boolean;
  lastSeenAt: string | null;
  totals: {
    kills: number;
    deaths: number;
    /**
     * kills / max(deaths, 1), two decimals, as the leaderboard's
     */
    kd: number;
    headshots: number;
    playSeconds: number;
  };
  /**
   * the last 10 play sessions, newest first (recorded since the service kept them)
   */
  sessions: {
    startedAt: string;
    /**
     * the disconnect, or the last presence before the player went quiet; null while ongoing
     */
    endedAt: string | null;
    ongoing: boolean;
  }[];
  /**
   * the player's 10 newest kills there, newest first
   */
  recentKills: Kill[];
  /**
   * the 10 newest kills of the player there (by another player, or a suicide), newest first
   */
  recentDeaths: Kill[];
}
export interface QueueEntry {
  id: string;
  platformId: PlatformId;
  /**
   * the name given with the entry (by an admin, the store or a file)
   */
  playerName: string | null;
  /**
   * in the list: the name the player last had on one of the account's servers (null: never seen there); the dashboard shows it when playerName is null
   */
  seenName?: string | null;
  comment: string | null;
  /**
   * null: every server of the account
   */
  serverIds: string[] | null;
  permanent: boolean;
  /**
   * not yet expired (the worker deletes expired entries within 60 s)
   */
  active: boolean;
  expiresAt: string | null;
  source: 'manual' | 'store' | 'import';
  createdBy: {
    id: string | null;
    name: string | null;
  } | null;
  createdAt: string;
  updatedAt: string | null;
}
export interface TrustScore {
  platformId: string;
  serviceId: string | null;
  score: number;
  confidence: number;
  band: 'trusted' | 'neutral' | 'watch' | 'high_risk';
  signals: {
    /**
     * distinct communities with an approved, active pool entry
     */
    bansActive: number;
    /**
     * distinct communities whose submission awaits review
     */
    submissionsPending: number;
    overturns: number;
    playMinutes: number;
    serversSeen: number;
    kills: number;
    headshotRatio: number | null;
    accuracy: number | null;
    meanKillDistance: number | null;
    /**
     * one per community with a pool entry about the player or play on its servers, unnamed, heaviest term first: what the score is computed from, with the rules of the discovery document (scoring)
     */
    communities: {
      /**
       * the community's strongest pool entry (pending or approved); null when it has none
       */
      voice: {
        status: 'active' | 'pending' | 'expired' | 'overturned';
        category: 'cheating' | 'exploiting' | 'griefing' | 'toxicity' | 'ban_evasion' | 'other';
        /**
         * the days it was set for; null: permanent
         */
        lengthDays: number | null;
        /**
         * an expired entry: days since it ended (two decimals)
         */
        endedDaysAgo: number | null;
      } | null;
      playMinutes: number;
      kills: number;
      headshotRatio: number | null;
      accuracy: number | null;
    }[];
  };
  reasons: string[];
  computedAt: string;
  /**
   * present only when signing is configured: RS256 JWT restating platformId, serviceId, score, band, confidence, computedAt
   */
  proof?: string;
}
/**
 * The community ban pool entries that weigh in a player's score, newest first: the reporting community's name and the category, never the user who submitted, the free-text reason or private notes. Rejected submissions are not listed.
 */
export interface TrustPublicEntries {
  platformId: string;
  entries: {
    /**
     * the community that reported the player
     */
    community: string;
    category: 'cheating' | 'exploiting' | 'griefing' | 'toxicity' | 'ban_evasion' | 'other';
    /**
     * pending: awaiting a network moderator (weighs little); active: approved and in force; expired: weighs less as it ages; overturned: upheld on appeal, counts for the player
     */
    status: 'pending' | 'active' | 'expired' | 'overturned';
    submittedAt: string;
    decidedAt: string | null;
    expiresAt: string | null;
  }[];
}
export interface TrustSubmission {
  id: string;
  platformId: string;
  /**
   * in the list: the player's name as the submitting community knows it (its ban's, else the one last seen on its servers); null when it knows none
   */
  playerName?: string | null;
  status: 'pending' | 'rejected' | 'active' | 'overturned' | 'expired';
  category: 'cheating' | 'exploiting' | 'griefing' | 'toxicity' | 'ban_evasion' | 'other';
  reason: string;
  evidence: string[];
  banId: string | null;
  accountId: string;
  submittedBy: string | null;
  note: string | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
  decidedAt: string | null;
}
/**
 * Whether the account watches the player (the dashboard marks watched players in its online lists).
 */
export interface PlayerWatch {
  platformId: string;
  watched: boolean;
  watchedAt: string | null;
  watchedBy: {
    id: string | null;
    name: string | null;
  } | null;
}
/**
 * The account's players matching q: seen on one of its servers (under the id, or under a name starting with q). By name: ordered by the matching name (lower-cased, byte order), then platform id.
 */
export interface PlayerSearch {
  /**
   * how q was read
   */
  match: 'id' | 'name';
  players: PlayerSearchHit[];
  /**
   * more players match than the limit: a longer q narrows them
   */
  more: boolean;
}
export interface PlayerSearchHit {
  ids: PlayerIds;
  /**
   * the newest name on the account's servers
   */
  lastName: string | null;
  /**
   * the name q matched (a name search), which may be an earlier one
   */
  matchedName: string | null;
  /**
   * the newest event naming the player, or presence, on the account's servers
   */
  lastSeenAt: string | null;
  servers: {
    id: string;
    name: string;
  }[];
}
export interface AuditQuery {
  /**
   * nextCursor of the previous page
   */
  before?: string;
  limit?: number;
  /**
   * only entries of this actor: a user name (any case) or an actor id
   */
  actor?: string;
  /**
   * only this action (ban.create), or every action of a kind (ban)
   */
  action?: string;
  /**
   * also the worker's routine file syncs (files.sync), left out otherwise; an action filter of files or files.sync shows them anyway
   */
  fileSyncs?: boolean;
  [k: string]: unknown;
}
export interface BanSearchQuery {
  /**
   * exact platform id; a Steam64 ban is found by its DayZ ID too
   */
  platformId?: string;
  /**
   * part of the player name, case-insensitive
   */
  name?: string;
  /**
   * omit for all
   */
  status?: 'active' | 'expired' | 'lifted';
  limit?: number;
  offset?: number;
  [k: string]: unknown;
}
export interface BansQuery {
  /**
   * omit for both
   */
  active?: 'true' | 'false';
  /**
   * clamped to the key tier's page cap
   */
  limit?: number;
  offset?: number;
  [k: string]: unknown;
}
export interface CommandWaitQuery {
  /**
   * seconds to wait for a command when none is waiting (long poll)
   */
  wait?: number;
  [k: string]: unknown;
}
export interface CommandsQuery {
  /**
   * nextCursor of the previous page
   */
  before?: string;
  limit?: number;
  [k: string]: unknown;
}
export interface KillsQuery {
  /**
   * strictly-before filter; default now
   */
  before?: string;
  /**
   * clamped to the key tier's page cap
   */
  limit?: number;
  [k: string]: unknown;
}
export interface LeaderboardQuery {
  sort?: 'points' | 'kd' | 'kills';
  /**
   * clamped to the key tier's page cap (standard 100, partner 500)
   */
  limit?: number;
  offset?: number;
  [k: string]: unknown;
}
export interface PlayerSearchQuery {
  /**
   * one field: an id in any form (Steam64, STEAM_X:Y:Z, DayZ ID, BattlEye GUID, console id, service UUID, discord:<id>) finds that player exactly; anything else is the start of a name, any case, current or seen before
   */
  q: string;
  /**
   * players a page; no cursor: `more` says whether a longer q would narrow it
   */
  limit?: number;
  [k: string]: unknown;
}
export interface QueueQuery {
  /**
   * exact platform id
   */
  platformId?: string;
  /**
   * entries covering this server
   */
  serverId?: string;
  limit?: number;
  offset?: number;
  [k: string]: unknown;
}
export interface ServerMetricsQuery {
  /**
   * samples strictly after this time; default: 24 hours before to. The next page: nextCursor of the previous one
   */
  from?: string;
  /**
   * samples at or before this time; default now
   */
  to?: string;
  limit?: number;
  [k: string]: unknown;
}
export interface TrustExportQuery {
  /**
   * ISO timestamp or epoch milliseconds: changes from then on
   */
  since?: string;
  /**
   * nextCursor of the previous page
   */
  cursor?: string;
  /**
   * clamped to the tier's page cap (basic 500, premium 1000)
   */
  limit?: number;
  /**
   * comma-separated list of active, overturned, expired
   */
  status?: string;
  [k: string]: unknown;
}
export interface TrustSubmissionsQuery {
  /**
   * only entries in this state
   */
  status?: 'pending' | 'rejected' | 'active' | 'overturned' | 'expired';
  limit?: number;
  offset?: number;
  [k: string]: unknown;
}
/**
 * Queues a player (priority / VIP). No serverIds: every server of the account. No expiresAt and no durationDays: permanent. Adding a player again with the same scope extends the entry (durationDays counts on from its old expiry).
 */
export interface QueueEntryCreate {
  platformId: PlatformId;
  playerName?: string | null;
  comment?: string | null;
  expiresAt?: string | null;
  durationDays?: number;
  /**
   * @minItems 1
   * @maxItems 1000
   */
  serverIds?: string[] | null;
}
/**
 * Changes an entry. expiresAt null makes it permanent; durationDays counts from now.
 */
export interface QueueEntryUpdate {
  playerName?: string | null;
  comment?: string | null;
  expiresAt?: string | null;
  durationDays?: number;
}
export interface QueuePage {
  entries: QueueEntry[];
  total: number;
  limit: number;
  offset: number;
}
export interface RebuildResult {
  servers: number;
  players: number;
}
/**
 * A server's scheduled restarts.
 */
export interface RestartScheduleSet {
  enabled: boolean;
  /**
   * the server's zone, an IANA name (Europe/Berlin, UTC)
   */
  timeZone: string;
  /**
   * times of day (HH:MM, 24-hour, in timeZone) the server shuts down for its restart; every 4 hours from 02:00 is 02:00, 06:00, ..., 22:00
   *
   * @minItems 1
   * @maxItems 48
   */
  times: string[];
  /**
   * the restart command is queued this long before each time: its warnings, lock and file pull come first
   */
  warningSeconds?: number;
  /**
   * shown with each warning
   */
  message?: string | null;
}
/**
 * A server's scheduled restarts, as set.
 */
export interface RestartSchedule {
  enabled: boolean;
  /**
   * the server's zone, an IANA name (Europe/Berlin, UTC)
   */
  timeZone: string;
  /**
   * times of day (HH:MM, 24-hour, in timeZone) the server shuts down for its restart; every 4 hours from 02:00 is 02:00, 06:00, ..., 22:00
   *
   * @minItems 1
   * @maxItems 48
   */
  times: string[];
  /**
   * the restart command is queued this long before each time: its warnings, lock and file pull come first
   */
  warningSeconds: number;
  /**
   * shown with each warning
   */
  message: string | null;
  /**
   * the next shutdown; null when disabled
   */
  nextAt: string | null;
  updatedAt: string;
}
/**
 * A server's commands, newest first.
 */
export interface ServerCommandList {
  commands: ServerCommand[];
  /**
   * pass as `before` for the next (older) page; null when there is none
   */
  nextCursor: string | null;
}
export interface ServerCreate {
  name: string;
  /**
   * ban.txt on the service's host: a path relative to GAME_FILES_DIR, or absolute inside it (stored relative). Only with GAME_FILES_DIR set, and only holders of accounts.manage name one; null clears (servers.manage).
   */
  banFilePath?: string | null;
  /**
   * priority.txt on the service's host, under the same rules as banFilePath.
   */
  priorityFilePath?: string | null;
}
export interface ServerCreated {
  server: ManagedServer;
  /**
   * shown once
   */
  ingestToken: string;
}
/**
 * Kicks a player from the server if present (done with detail "not on the server" otherwise).
 */
export interface ServerKick {
  platformId: PlatformId;
  /**
   * shown to the player
   */
  reason?: string;
}
/**
 * Every non-revoked server of the account, newest activity first; servers never seen last.
 */
export interface ServerList {
  servers: ServerSummary[];
}
export interface ServerSummary {
  /**
   * server id; used as {serverId}
   */
  id: string;
  name: string;
  map: string | null;
  gameVersion: string | null;
  /**
   * live online status: the newest status said online and is at most 120 s old
   */
  online: boolean;
  lastSeenAt: string | null;
}
/**
 * A message to every player on the server (BattlEye `say -1`).
 */
export interface ServerMessage {
  text: string;
}
/**
 * The dashboard's online list of a server: the Data API's, each player marked whether the account watches them (never in the Data API).
 */
export interface ServerOnlinePlayers {
  players: ServerOnlinePlayer[];
  count: number;
}
export interface ServerOnlinePlayer {
  platformId: PlatformId;
  name: string;
  watched: boolean;
}
/**
 * Restarts the server through its agent: warnings to the players at 300, 120, 60, 30 and 10 s before (those within the delay), the server locked at 60 s, its ban and priority files pulled at 30 s, then shut down; the host's process supervisor (or the agent's --restart-command) starts it again.
 */
export interface ServerRestart {
  /**
   * seconds from when the agent takes it to the shutdown
   */
  delaySeconds?: number;
  /**
   * shown with each warning
   */
  message?: string;
}
/**
 * ServerSummary plus the latest metrics sample; the sample fields are null until one arrives.
 */
export interface ServerStatus {
  /**
   * server id; used as {serverId}
   */
  id: string;
  name: string;
  map: string | null;
  gameVersion: string | null;
  /**
   * live online status: the newest status said online and is at most 120 s old
   */
  online: boolean;
  lastSeenAt: string | null;
  /**
   * player count from the latest metrics sample
   */
  players: number | null;
  fps: number | null;
  uptimeSeconds: number | null;
  metricsAt: string | null;
}
export interface ServerUpdate {
  name?: string;
  /**
   * ban.txt on the service's host: a path relative to GAME_FILES_DIR, or absolute inside it (stored relative). Only with GAME_FILES_DIR set, and only holders of accounts.manage name one; null clears (servers.manage).
   */
  banFilePath?: string | null;
  /**
   * priority.txt on the service's host, under the same rules as banFilePath.
   */
  priorityFilePath?: string | null;
}
/**
 * The signed-in user, their community and the permissions their role grants.
 */
export interface Session {
  user: {
    id: string;
    username: string;
    role: 'owner' | 'admin' | 'moderator' | 'viewer';
    accountId: string;
  };
  account: {
    id: string;
    name: string;
    /**
     * the network operator's account
     */
    operator: boolean;
  };
  permissions: (
    | 'users.manage'
    | 'apikeys.manage'
    | 'servers.manage'
    | 'servers.control'
    | 'servers.read'
    | 'bans.manage'
    | 'queue.manage'
    | 'audit.read'
    | 'trust.read'
    | 'trust.submit'
    | 'settings.manage'
    | 'accounts.manage'
    | 'trust.moderate'
    | 'partners.manage'
  )[];
}
/**
 * Creates the network operator's account and its owner.
 */
export interface SetupAdmin {
  accountName: string;
  username: string;
  password: string;
}
export interface SetupStatus {
  needsSetup: boolean;
}
/**
 * Whether the request came with a live session and, if it did, that session as GET /api/auth/session answers it. Always 200: a page that only asks whether someone is signed in gets no failed request.
 */
export interface SignInState {
  signedIn: boolean;
  session?: Session1;
}
/**
 * The signed-in user, their community and the permissions their role grants.
 */
export interface Session1 {
  user: {
    id: string;
    username: string;
    role: 'owner' | 'admin' | 'moderator' | 'viewer';
    accountId: string;
  };
  account: {
    id: string;
    name: string;
    /**
     * the network operator's account
     */
    operator: boolean;
  };
  permissions: (
    | 'users.manage'
    | 'apikeys.manage'
    | 'servers.manage'
    | 'servers.control'
    | 'servers.read'
    | 'bans.manage'
    | 'queue.manage'
    | 'audit.read'
    | 'trust.read'
    | 'trust.submit'
    | 'settings.manage'
    | 'accounts.manage'
    | 'trust.moderate'
    | 'partners.manage'
  )[];
}
/**
 * A store event in the service's own format, signed with X-Store-Signature.
 */
export interface StoreEventOwn {
  /**
   * the event's id; each id is processed once
   */
  id: string;
  type: 'purchase.completed' | 'purchase.refunded';
  platformId: PlatformId;
  /**
   * a key of STORE_PRODUCTS
   */
  sku: string;
  /**
   * on a refund: the id of the purchase event it refunds; without it, the player's newest unrefunded purchase of the sku
   */
  purchaseId?: string;
}
/**
 * A Tebex webhook (docs.tebex.io, Webhooks), signed with X-Signature. Only the fields the service reads are described; Tebex sends many more.
 */
export interface StoreEventTebex {
  id: string;
  type: string;
  date?: string;
  subject: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * The subject of a Tebex payment.* webhook, as far as the service reads it: the transaction, the customer's username and each product bought.
 */
export interface StorePaymentTebex {
  transaction_id: string;
  customer?: {
    username?: StorePaymentTebexUsername;
    [k: string]: unknown;
  };
  /**
   * @maxItems 500
   */
  products: {
    id: number;
    quantity?: number;
    username?: StorePaymentTebexUsername;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
/**
 * STORE_PRODUCTS: what each store product grants. Keys are a sku of the service's own webhook format, or tebex:<product id>.
 */
export interface StoreProducts {
  [k: string]: {
    /**
     * the account whose queue it grants; default: the operator's account (the first one made by setup)
     */
    accountId?: string;
    /**
     * days of priority queue per unit bought; null = permanent
     */
    days: number | null;
    servers: 'all' | string[];
  };
}
/**
 * What the store webhook did with an event. A Tebex validation.webhook is answered with its id alone.
 */
export interface StoreWebhookResult {
  /**
   * the event's id
   */
  id: string;
  /**
   * repeat: this event id was processed before and nothing changed now; ignored: an event type or product that grants nothing
   */
  outcome?: 'processed' | 'repeat' | 'ignored';
  /**
   * queue entries added or extended
   */
  granted?: number;
  /**
   * grants taken back
   */
  revoked?: number;
  /**
   * refunds recorded before their purchase arrived: that purchase will grant nothing
   */
  refundsAwaitingPurchase?: number;
}
export interface TrustDiscovery {
  issuer: string;
  endpoints: {
    [k: string]: string;
  };
  scoreSchema: {
    [k: string]: unknown;
  };
  bands: {
    [k: string]: {
      [k: string]: unknown;
    };
  };
  identifierKinds: string[];
  reasonCategories: ('cheating' | 'exploiting' | 'griefing' | 'toxicity' | 'ban_evasion' | 'other')[];
  exportStatuses: string[];
  signing?: {
    algorithm: 'RS256';
    proofType?: string;
    audience?: string;
    exportProofType?: string;
    jwks: {
      keys: {
        [k: string]: unknown;
      }[];
      [k: string]: unknown;
    };
    exportAudience?: string;
    [k: string]: unknown;
  };
  /**
   * the rules every score is computed by: with a lookup's signals they give its score exactly
   */
  scoring: {
    /**
     * every number the score uses (scoringRules)
     */
    rules: {
      [k: string]: unknown;
    };
    /**
     * how the score is computed from signals.communities and the rules, in order
     */
    steps: string[];
  };
}
export interface TrustExportPage {
  rows: TrustExportRow[];
  count: number;
  /**
   * pass as cursor for the next page; null when the feed is read to its end
   */
  nextCursor: string | null;
  /**
   * on the last page (nextCursor null): resume later with since = this value
   */
  syncedThrough: string | null;
  /**
   * RS256 JWT over { digest, count, cursor, nextCursor, iat }, aud = the partner key id
   */
  proof?: string;
}
export interface TrustExportRow {
  id: string;
  platformId: string;
  serviceId: string | null;
  status: 'active' | 'overturned' | 'expired';
  reason: string;
  category: 'cheating' | 'exploiting' | 'griefing' | 'toxicity' | 'ban_evasion' | 'other';
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
}
export interface TrustSubmissionCreate {
  /**
   * the player (any id form); omit when submitting banId
   */
  platformId?: string;
  /**
   * one of the community's own bans: its player and expiry are taken
   */
  banId?: string;
  category: 'cheating' | 'exploiting' | 'griefing' | 'toxicity' | 'ban_evasion' | 'other';
  reason: string;
  /**
   * @maxItems 20
   */
  evidence?: string[];
  /**
   * private to the controller, never published
   */
  note?: string;
  /**
   * when the entry expires; none = permanent
   */
  expiresAt?: string;
}
export interface TrustSubmissionList {
  submissions: TrustSubmission[];
}
export interface UserCreate {
  username: string;
  password: string;
  role: 'owner' | 'admin' | 'moderator' | 'viewer';
}
export interface UserList {
  users: User[];
}
export interface UserUpdate {
  role?: 'owner' | 'admin' | 'moderator' | 'viewer';
  password?: string;
}
/**
 * An endpoint the community's events are sent to. url: https to a public address (checked now and at every delivery). format discord: Discord webhook messages with embeds; standard: Standard Webhooks, signed with a secret shown once in the answer.
 */
export interface WebhookCreate {
  url: string;
  format: 'discord' | 'standard';
  /**
   * @minItems 1
   * @maxItems 8
   */
  events: WebhookEventType[];
  /**
   * the servers whose events (kill, server.online, server.offline, player.watched.joined) go to the endpoint; absent or null: every server of the account
   *
   * @minItems 1
   * @maxItems 1000
   */
  serverIds?: string[] | null;
  /**
   * discord format only: the Discord role (its id) a message reporting a watched player joining mentions; null or absent: no one is mentioned
   */
  mentionRoleId?: string | null;
}
export interface WebhookCreated {
  webhook: Webhook;
  /**
   * standard format only, shown once (at creation and rotation): the receiver verifies webhook-signature with it
   */
  secret?: string;
}
/**
 * An endpoint of the community. Its secret (standard format) is never shown here: only at creation and rotation.
 */
export interface Webhook {
  id: string;
  url: string;
  format: 'discord' | 'standard';
  events: WebhookEventType[];
  serverIds: string[] | null;
  /**
   * the Discord role a message reporting a watched player joining mentions (discord format); null: none
   */
  mentionRoleId: string | null;
  paused: boolean;
  pausedAt: string | null;
  /**
   * why it is paused: by hand, or the deliveries that failed for 24 hours and the last error
   */
  pausedReason: string | null;
  /**
   * hand: paused by the community; failures: by the service after 24 hours of failed deliveries (the dashboard says so on every page); null while not paused
   */
  pausedBy: 'hand' | 'failures' | null;
  /**
   * the event at the head of its queue has failed since then (it is paused after 24 hours)
   */
  failingSince: string | null;
  /**
   * when the head of its queue is tried again
   */
  nextAttemptAt: string | null;
  /**
   * events waiting to be delivered
   */
  waiting: number;
  /**
   * after a rotation, requests are also signed with the secret before until then (24 h)
   */
  previousSecretValidUntil: string | null;
  createdAt: string;
  updatedAt: string;
}
/**
 * The endpoint's last 100 delivery attempts, newest first.
 */
export interface WebhookDeliveries {
  deliveries: {
    at: string;
    eventIds: string[];
    eventTypes: string[];
    /**
     * the try of these events, 1 the first
     */
    attempt: number;
    /**
     * rate-limited: the receiver answered 429 with retry_after, waited without counting as a failure
     */
    outcome: 'delivered' | 'failed' | 'rate-limited';
    /**
     * the receiver's HTTP status; null when none came
     */
    statusCode: number | null;
    error: string | null;
    durationMs: number;
  }[];
}
export interface WebhookList {
  webhooks: Webhook[];
}
/**
 * The test event (type webhook.test) waits behind the endpoint's other events; its delivery shows in the endpoint's deliveries.
 */
export interface WebhookTestQueued {
  /**
   * its webhook-id (standard format)
   */
  eventId: string;
}
/**
 * Changes an endpoint; paused true stops its deliveries (new events are not queued for it while paused), false resumes them (the events still waiting are tried afresh). Its format cannot change.
 */
export interface WebhookUpdate {
  url?: string;
  /**
   * @minItems 1
   * @maxItems 8
   */
  events?: WebhookEventType[];
  /**
   * @minItems 1
   * @maxItems 1000
   */
  serverIds?: string[] | null;
  paused?: boolean;
  /**
   * discord format only: the Discord role (its id) a message reporting a watched player joining mentions; null or absent: no one is mentioned
   */
  mentionRoleId?: string | null;
}

/**
 * Each schema's top-level fields that have a default: a value that passed the schema has them.
 */
export interface SchemaDefaults {
  'account-create.json': never;
  'account-created.json': never;
  'account-list.json': never;
  'account-settings-update.json': never;
  'account-settings.json': never;
  'active-bans.json': never;
  'agent-commands.json': never;
  'api-key-create.json': 'tier';
  'api-key-created.json': never;
  'api-key-list.json': never;
  'api-key.json': never;
  'audit-entry.json': never;
  'audit-page.json': never;
  'ban-create.json': never;
  'ban-import.json': never;
  'ban-list.json': never;
  'ban-record-page.json': never;
  'ban-record.json': never;
  'ban-update.json': never;
  'ban.json': never;
  'chat-action-result.json': never;
  'chat-action.json': never;
  'chat-bot-create.json': never;
  'chat-bot-created.json': never;
  'chat-bot-list.json': never;
  'chat-bot.json': never;
  'chat-params-ban-create.json': never;
  'chat-params-ban-revoke.json': never;
  'chat-params-link.json': never;
  'chat-params-queue-add.json': never;
  'chat-params-queue-remove.json': never;
  'chat-params-trust-lookup.json': never;
  'chat-settings.json': never;
  'chat-user-role-set.json': never;
  'chat-user-role.json': never;
  'chat-user-roles.json': never;
  'command-result.json': never;
  'data-api-switch.json': never;
  'error.json': never;
  'health-live.json': never;
  'health-ready.json': never;
  'health.json': never;
  'ingest-batch.json': never;
  'ingest-event.json': never;
  'ingest-result.json': never;
  'ingest-token.json': never;
  'kill.json': never;
  'killfeed-page.json': never;
  'leaderboard-entry.json': never;
  'leaderboard-page.json': never;
  'limits.json': never;
  'login-result.json': never;
  'login.json': never;
  'managed-server-list.json': never;
  'managed-server.json': never;
  'metrics-page.json': never;
  'online-player.json': never;
  'online-players.json': never;
  'partner-key-create.json': 'tier';
  'partner-key-created.json': never;
  'partner-key-list.json': never;
  'partner-key.json': never;
  'platform-id.json': never;
  'player-ids.json': never;
  'player-note-create.json': never;
  'player-note-list.json': never;
  'player-note.json': never;
  'player-profile.json': never;
  'player-search.json': never;
  'player-watch.json': never;
  'query-audit.json': 'limit' | 'fileSyncs';
  'query-ban-search.json': 'limit' | 'offset';
  'query-bans.json': 'limit' | 'offset';
  'query-command-wait.json': 'wait';
  'query-commands.json': 'limit';
  'query-kills.json': 'limit';
  'query-leaderboard.json': 'sort' | 'limit' | 'offset';
  'query-player-search.json': 'limit';
  'query-queue.json': 'limit' | 'offset';
  'query-server-metrics.json': 'limit';
  'query-trust-export.json': 'limit';
  'query-trust-submissions.json': 'limit' | 'offset';
  'queue-entry-create.json': never;
  'queue-entry-update.json': never;
  'queue-entry.json': never;
  'queue-page.json': never;
  'rebuild-result.json': never;
  'restart-schedule-set.json': 'warningSeconds';
  'restart-schedule.json': 'warningSeconds';
  'server-command-list.json': never;
  'server-command.json': never;
  'server-create.json': never;
  'server-created.json': never;
  'server-kick.json': never;
  'server-list.json': never;
  'server-message.json': never;
  'server-online-players.json': never;
  'server-restart.json': 'delaySeconds';
  'server-status.json': never;
  'server-summary.json': never;
  'server-update.json': never;
  'session.json': never;
  'setup-admin.json': never;
  'setup-status.json': never;
  'sign-in-state.json': never;
  'store-event-own.json': never;
  'store-event-tebex.json': never;
  'store-event.json': never;
  'store-payment-tebex.json': never;
  'store-products.json': never;
  'store-webhook-result.json': never;
  'trust-discovery.json': never;
  'trust-export-page.json': never;
  'trust-export-row.json': never;
  'trust-public-entries.json': never;
  'trust-score.json': never;
  'trust-submission-create.json': 'evidence';
  'trust-submission-list.json': never;
  'trust-submission.json': never;
  'user-create.json': never;
  'user-list.json': never;
  'user-update.json': never;
  'user.json': never;
  'webhook-create.json': never;
  'webhook-created.json': never;
  'webhook-deliveries.json': never;
  'webhook-event-type.json': never;
  'webhook-list.json': never;
  'webhook-test-queued.json': never;
  'webhook-update.json': never;
  'webhook.json': never;
}
