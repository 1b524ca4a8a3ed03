// The shapes the dashboard reads from the service, as schemas/ describes them.

export type Permission =
  | 'users.manage' | 'apikeys.manage' | 'servers.manage' | 'servers.control' | 'servers.read'
  | 'bans.manage' | 'queue.manage' | 'audit.read' | 'trust.read' | 'trust.submit'
  | 'accounts.manage' | 'trust.moderate' | 'partners.manage';

export type Role = 'owner' | 'admin' | 'moderator' | 'viewer';
export const roles: Role[] = ['owner', 'admin', 'moderator', 'viewer'];

export interface SessionInfo {
  user: { id: string; username: string; role: Role; accountId: string };
  account: { id: string; name: string; operator: boolean };
  permissions: Permission[];
}

export interface ManagedServer {
  id: string;
  name: string;
  banFilePath: string | null;
  priorityFilePath: string | null;
  createdAt: string;
  online: boolean;
  lastSeenAt: string | null;
  map: string | null;
  players: number | null;
  fps: number | null;
  metricsAt: string | null;
}

export interface OnlinePlayer { platformId: string; name: string }

export interface RestartParams { delaySeconds: number; message: string | null }
export interface MessageParams { text: string }
export interface KickParams { platformId: string; reason: string | null }
export type CommandStatus = 'pending' | 'sent' | 'done' | 'failed' | 'expired';

/** A command for a server's agent (schemas/server-command.json); `kind` tells its params apart. */
export type ServerCommand = ({ kind: 'restart'; params: RestartParams } | { kind: 'message'; params: MessageParams } | { kind: 'kick'; params: KickParams }) & {
  id: string;
  serverId: string;
  status: CommandStatus;
  requestedBy: { type: 'user' | 'chat' | 'system'; id: string | null; name: string | null };
  createdAt: string;
  expiresAt: string;
  sentAt: string | null;
  /** A taken restart: when the server shuts down. */
  dueAt: string | null;
  /** Seconds from the answer to dueAt (negative once past). */
  dueInSeconds: number | null;
  finishedAt: string | null;
  detail: string | null;
};

export interface CommandPage { commands: ServerCommand[]; nextCursor: string | null }

export interface RestartSchedule {
  enabled: boolean;
  timeZone: string;
  /** HH:MM, 24-hour, in timeZone, sorted. */
  times: string[];
  warningSeconds: number;
  message: string | null;
  /** The next shutdown; null when disabled. */
  nextAt: string | null;
  updatedAt: string;
}

export interface LeaderboardEntry {
  rank: number;
  platformId: string;
  name: string;
  kills: number;
  deaths: number;
  headshots: number;
  kd: number;
  points: number;
  meanKillDistance: number | null;
  playMinutes: number;
}

export interface Kill {
  ts: string;
  killerPlatformId: string;
  killerName: string;
  victimPlatformId: string;
  victimName: string;
  weapon: string;
  distance: number;
  isHeadshot: boolean;
  hitZone: string | null;
}

export interface SyncedBan {
  platformId: string;
  playerName: string | null;
  reason: string | null;
  source: string | null;
  permanent: boolean;
  bannedAt: string | null;
  expiresAt: string | null;
}

export interface MetricsSample { at: string; online: boolean; players: number | null; fps: number | null; uptimeSeconds: number | null }
export interface MetricsPage { from: string; to: string; samples: MetricsSample[]; nextCursor: string | null }

export interface BanRecord {
  id: string;
  platformId: string;
  playerName: string | null;
  reason: string | null;
  source: 'manual' | 'import' | 'cloud';
  permanent: boolean;
  active: boolean;
  bannedAt: string;
  expiresAt: string | null;
  createdBy: { id: string | null; name: string | null } | null;
  liftedAt: string | null;
  liftedBy: { id: string | null; name: string | null } | null;
  importedFrom: string | null;
}

export interface QueueEntry {
  id: string;
  platformId: string;
  playerName: string | null;
  comment: string | null;
  serverIds: string[] | null;
  permanent: boolean;
  active: boolean;
  expiresAt: string | null;
  source: 'manual' | 'store' | 'import';
  createdAt: string;
}

export interface ApiKey { id: string; name: string; tier: 'standard' | 'partner'; createdAt: string; revokedAt: string | null }
export interface PartnerKey { id: string; name: string; tier: 'basic' | 'premium'; createdAt: string; revokedAt: string | null }
export interface User { id: string; accountId: string; username: string; role: Role; createdAt: string }
export interface ChatRoleMapping { chatUserId: string; role: string }
/** A chat bot of the community (schemas/chat-bot.json); its secret is only ever in the answer that made or rotated it. */
export interface ChatBot { id: string; name: string; createdAt: string; rotatedAt: string | null; previousSecretValidUntil: string | null }

export interface AuditEntry {
  id: string;
  at: string;
  actor: { type: 'user' | 'system' | 'chat'; id: string | null; name: string | null };
  action: string;
  target: { type: string | null; id: string | null };
  ip: string | null;
  details: Record<string, unknown>;
}

export interface Account { id: string; name: string; createdAt: string; isOperator: boolean; servers: number }

export type Category = 'cheating' | 'exploiting' | 'griefing' | 'toxicity' | 'ban_evasion' | 'other';
export const categories: Category[] = ['cheating', 'exploiting', 'griefing', 'toxicity', 'ban_evasion', 'other'];
export const categoryWords: Record<Category, string> = {
  cheating: 'Cheating', exploiting: 'Exploiting', griefing: 'Griefing', toxicity: 'Toxicity', ban_evasion: 'Ban evasion', other: 'Other',
};

export interface TrustSubmission {
  id: string;
  platformId: string;
  status: 'pending' | 'rejected' | 'active' | 'overturned' | 'expired';
  category: Category;
  reason: string;
  evidence: string[];
  banId: string | null;
  accountId: string;
  submittedBy: string | null;
  note: string | null;
  createdAt: string;
  expiresAt: string | null;
  decidedAt: string | null;
}

export interface TrustScore {
  platformId: string;
  serviceId: string | null;
  score: number;
  confidence: number;
  band: 'trusted' | 'neutral' | 'watch' | 'high_risk';
  signals: Record<string, number | null>;
  reasons: string[];
  computedAt: string;
}

export interface PublicEntry {
  community: string;
  category: Category;
  status: 'pending' | 'active' | 'expired' | 'overturned';
  submittedAt: string;
  decidedAt: string | null;
  expiresAt: string | null;
}

/** The player ids bans and queue entries take (schemas/platform-id.json), as an input pattern. */
export const platformIdPattern = '7656119[7-9][0-9]{9}|7656120[0-2][0-9]{9}|[A-Za-z0-9_\\-]{43}=|[0-9A-F]{40}';
