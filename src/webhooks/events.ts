// The events a community can subscribe an endpoint to, and the data each carries. Server-bound
// events (a kill, a server going on or off line, a watched player joining) go only to endpoints whose serverIds include
// the server (or that name none); account-wide ones (bans, the queue, the trust pool) to every
// endpoint subscribed. No event carries a position. Pure.

export const webhookEvents = [
  'kill',
  'ban.created',
  'ban.lifted',
  'server.online',
  'server.offline',
  'player.watched.joined',
  'queue.granted',
  'trust.entry.approved',
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

/** What POST /api/webhooks/:id/test sends; no endpoint subscribes to it. */
export const testEventType = 'webhook.test';
export type EventType = WebhookEvent | typeof testEventType;

export interface PlayerRef {
  platformId: string;
  name: string | null;
}

export interface KillData {
  serverId: string;
  serverName: string;
  killer: PlayerRef;
  victim: PlayerRef;
  weapon: string;
  distance: number;
  hitZone: string | null;
  headshot: boolean;
  /** The killer's kills on the server since their last death there, this one included (0 for a suicide). */
  killerStreak?: number;
}

export interface WatchedJoinedData {
  serverId: string;
  serverName: string;
  player: PlayerRef;
  watchedAt: string;
  watchedBy: { id: string | null; name: string | null };
}

export interface ServerStatusData {
  serverId: string;
  serverName: string;
}

export interface BanData {
  ban: {
    id: string;
    platformId: string;
    playerName: string | null;
    reason: string | null;
    source: string;
    bannedAt: string;
    expiresAt: string | null;
    createdBy: { id: string | null; name: string | null };
    liftedAt: string | null;
    liftedBy: { id: string | null; name: string | null } | null;
  };
}

export interface QueueGrantedData {
  entry: {
    id: string;
    platformId: string;
    playerName: string | null;
    serverIds: string[] | null;
    expiresAt: string | null;
    source: string;
  };
  /** false: an entry already there was extended. */
  created: boolean;
}

export interface TrustApprovedData {
  entry: { id: string; platformId: string; category: string; reason: string; expiresAt: string | null; decidedAt: string | null };
}

export interface TestData {
  endpointId: string;
  message: string;
}

/** An event as it waits in the outbox: its data by its type. */
export type OutboundEvent =
  | { type: 'kill'; data: KillData }
  | { type: 'server.online' | 'server.offline'; data: ServerStatusData }
  | { type: 'player.watched.joined'; data: WatchedJoinedData }
  | { type: 'ban.created' | 'ban.lifted'; data: BanData }
  | { type: 'queue.granted'; data: QueueGrantedData }
  | { type: 'trust.entry.approved'; data: TrustApprovedData }
  | { type: typeof testEventType; data: TestData };

/** A ban as the ban events carry it: what it is, who placed it, who lifted it. */
export function banData(ban: {
  id: string;
  platformId: string;
  playerName: string | null;
  reason: string | null;
  source: string;
  bannedAt: string;
  expiresAt: string | null;
  createdById: string | null;
  createdByName: string | null;
  liftedAt: string | null;
  liftedById: string | null;
  liftedByName: string | null;
}): BanData {
  return {
    ban: {
      id: ban.id,
      platformId: ban.platformId,
      playerName: ban.playerName,
      reason: ban.reason,
      source: ban.source,
      bannedAt: ban.bannedAt,
      expiresAt: ban.expiresAt,
      createdBy: { id: ban.createdById, name: ban.createdByName },
      liftedAt: ban.liftedAt,
      liftedBy: ban.liftedAt ? { id: ban.liftedById, name: ban.liftedByName } : null,
    },
  };
}
