// The shapes the dashboard reads from the service: the types generated from schemas/ (one source
// with the service), plus the few views the dashboard makes of them.
import type * as Wire from '../../src/http/schema-types.ts';

export type {
  AccountList,
  ApiKey,
  ApiKeyCreated,
  ApiKeyList,
  AuditEntry,
  AuditPage,
  BanList,
  BanRecord,
  BanRecordPage,
  ChatBot,
  ChatBotCreated,
  ChatBotList,
  Limits,
  ChatUserRoles,
  DataApiSwitch,
  KickParams,
  Kill,
  KillfeedPage,
  LeaderboardEntry,
  LeaderboardPage,
  ManagedServer,
  ManagedServerList,
  MessageParams,
  MetricsPage,
  OnlinePlayer,
  OnlinePlayers,
  PlayerIds,
  PlayerNote,
  PlayerNoteList,
  PlayerProfile,
  PlayerSearch,
  PlayerSearchHit,
  PlayerServer,
  PlayerWatch,
  PartnerKey,
  PartnerKeyCreated,
  PartnerKeyList,
  QueueEntry,
  QueuePage,
  RestartParams,
  RestartSchedule,
  ServerCreated,
  ServerOnlinePlayers,
  TrustPublicEntries,
  TrustScore,
  TrustSubmission,
  TrustSubmissionList,
  User,
  UserList,
  Webhook,
  WebhookCreated,
  WebhookDeliveries,
  WebhookList,
} from '../../src/http/schema-types.ts';

export type SessionInfo = Wire.Session;
export type SignInState = Wire.SignInState;
export type Permission = Wire.Session['permissions'][number];
export type Role = Wire.User['role'];
export const roles: Role[] = ['owner', 'admin', 'moderator', 'viewer'];

export type CommandStatus = Wire.ServerCommand['status'];
/**
 * A command for a server's agent. The schema lets `params` be any of the three; the service pairs
 * each kind with its own params, and this view says so, so `kind` tells the params apart.
 */
export type ServerCommand = Wire.ServerCommand &
  (
    | { kind: 'restart'; params: Wire.RestartParams }
    | { kind: 'message'; params: Wire.MessageParams }
    | { kind: 'kick'; params: Wire.KickParams }
  );
export type CommandPage = Omit<Wire.ServerCommandList, 'commands'> & { commands: ServerCommand[] };

export type MetricsSample = Wire.MetricsPage['samples'][number];
export type PublicEntry = Wire.TrustPublicEntries['entries'][number];

export type Category = Wire.TrustSubmission['category'];
/** Each pool category: its name and what it means, in the order forms offer them. */
export const categoryTable: Record<Category, { words: string; meaning: string }> = {
  cheating: { words: 'Cheating', meaning: 'Cheat software, such as an aimbot, wallhack, ESP or speed hack.' },
  exploiting: { words: 'Exploiting', meaning: 'Abusing game bugs, such as duping items or glitching through walls into bases.' },
  griefing: {
    words: 'Griefing',
    meaning: "Spoiling others' play on purpose, such as wrecking bases, camping fresh spawns or trapping players.",
  },
  toxicity: { words: 'Toxicity', meaning: 'Abuse in chat or voice, such as slurs, threats or harassment.' },
  ban_evasion: { words: 'Ban evasion', meaning: 'Playing on another account to get around a ban.' },
  other: { words: 'Other', meaning: 'Anything else that deserves a network ban: say what in the reason.' },
};
export const categories = Object.keys(categoryTable) as Category[];
export const categoryWords = Object.fromEntries(categories.map((c) => [c, categoryTable[c].words])) as Record<Category, string>;

/** The player ids bans and queue entries take (schemas/platform-id.json), as an input pattern. */
export const platformIdPattern = '7656119[7-9][0-9]{9}|7656120[0-2][0-9]{9}|[A-Za-z0-9_\\-]{43}=|[0-9A-F]{40}';
