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
export const categories: Category[] = ['cheating', 'exploiting', 'griefing', 'toxicity', 'ban_evasion', 'other'];
export const categoryWords: Record<Category, string> = {
  cheating: 'Cheating',
  exploiting: 'Exploiting',
  griefing: 'Griefing',
  toxicity: 'Toxicity',
  ban_evasion: 'Ban evasion',
  other: 'Other',
};

/** The player ids bans and queue entries take (schemas/platform-id.json), as an input pattern. */
export const platformIdPattern = '7656119[7-9][0-9]{9}|7656120[0-2][0-9]{9}|[A-Za-z0-9_\\-]{43}=|[0-9A-F]{40}';
