// What the chat bot can do. Each action names the permission it needs and runs through the same
// functions as the controller's own routes (the call's principal is the chat user, so their audit
// entries name it); its result carries a short `text` a bot can print as it is, beside the data.
import type { AppContext } from '../http/context.ts';
import type { ServerDeps } from '../servers/server.ts';
import type { AgentWaitsHeld } from '../commands/agent-waits.ts';
import type { Permission } from '../auth/permissions.ts';
import { ownedServerStatusBody } from '../data-api/servers.ts';
import { onlinePage } from '../data-api/online.ts';
import { notFound } from '../http/errors.ts';
import { actorOf } from '../audit/actor.ts';
import { canonicalPlatformId, createBan, removeBan } from '../bans/bans.ts';
import { queuePlayer, removeQueueEntry } from '../queue/queue.ts';
import { entriesOfPlayer } from '../queue/queue.repo.ts';
import { requestCommand } from '../commands/commands.ts';
import { defaultRestartDelaySeconds } from '../commands/command.ts';
import { trustLookup } from '../trust/lookup.ts';
import { findTrustPlayer, linkChatUser } from '../trust/player.repo.ts';
import { classifyIdentifier } from '../identities/id-forms.ts';
import type { TrustDeps } from '../trust/lookup.ts';

export interface ChatCall {
  deps: TrustDeps & ServerDeps & AgentWaitsHeld;
  ctx: AppContext;
  accountId: string;
  /** The server the call names (actions that need one only). */
  serverId: string;
  chatUserId: string;
  signed: boolean;
}

export interface ChatResult {
  text: string;
  [field: string]: unknown;
}

export interface ChatAction {
  permission: Permission;
  /** What it acts on: one server of the account (serverId required), the account, or the network (the public trust data). */
  scope: 'server' | 'account' | 'network';
  /** Refused unless the call is signed: what it does rests on the chat user being who they say. */
  signedOnly?: boolean;
  /** $id of the params schema in schemas/ (none: params must be absent or empty). */
  params?: string;
  run: (call: ChatCall, params: Record<string, unknown>) => Promise<ChatResult>;
}

const until = (expiresAt: string | null) => (expiresAt === null ? 'permanently' : `until ${expiresAt.slice(0, 16).replace('T', ' ')} UTC`);

interface ScoreBody {
  platformId: string;
  score: number;
  band: string;
  confidence: number;
  reasons: string[];
}

interface StatusBody {
  name: string;
  online: boolean;
  players: number | null;
  fps: number | null;
  map: string | null;
}

export const chatActions: Record<string, ChatAction> = {
  'server.status': {
    permission: 'servers.read',
    scope: 'server',
    run: async ({ deps, accountId, serverId }) => {
      const status = JSON.parse((await ownedServerStatusBody(deps, accountId, serverId))!) as StatusBody;
      const details = status.online
        ? [status.map, status.players === null ? null : `${status.players} players`, status.fps === null ? null : `${status.fps} fps`]
        : [];
      return {
        text: `${status.name}: ${status.online ? 'online' : 'offline'}${details
          .filter(Boolean)
          .map((d) => `, ${d}`)
          .join('')}`,
        status,
      };
    },
  },
  'players.list': {
    permission: 'servers.read',
    scope: 'server',
    run: async ({ deps, serverId }) => {
      const online = JSON.parse((await onlinePage(deps, serverId)).toString()) as {
        players: { platformId: string; name: string }[];
        count: number;
      };
      const names = online.players.map((p) => p.name);
      const shown = names.length > 20 ? `${names.slice(0, 20).join(', ')} and ${names.length - 20} more` : names.join(', ');
      return { text: online.count === 0 ? 'nobody is online' : `${online.count} online: ${shown}`, ...online };
    },
  },
  'trust.lookup': {
    permission: 'trust.read',
    scope: 'network',
    params: 'chat-params-trust-lookup.json',
    // The public lookup itself (same cache, same proof); the bot path's own rate cap applies instead of the per-IP one.
    run: async ({ deps }, params) => {
      const cached = await trustLookup(deps, params.identifier as string);
      const score = JSON.parse(cached.body.toString()) as ScoreBody;
      const moved = score.reasons.slice(1);
      const why = moved.length === 0 ? 'no history yet' : moved.join('; ');
      return {
        text: `${score.platformId}: trust ${score.score}/100, ${score.band.replace('_', ' ')} (confidence ${score.confidence}): ${why}`,
        score,
      };
    },
  },
  link: {
    permission: 'trust.read',
    scope: 'network',
    signedOnly: true,
    params: 'chat-params-link.json',
    run: async ({ deps, chatUserId }, params) => {
      const id = classifyIdentifier(params.platformId as string, deps.clock.now());
      const player = id && (await findTrustPlayer(deps.db, id.kind, id.value));
      if (!player) throw notFound('player');
      await linkChatUser(deps.db, chatUserId, player.platformId, new Date(deps.clock.now()).toISOString());
      return { text: `linked discord:${chatUserId} to ${player.platformId}`, chatUserId, platformId: player.platformId };
    },
  },
  'ban.create': {
    permission: 'bans.manage',
    scope: 'account',
    params: 'chat-params-ban-create.json',
    run: async ({ deps, ctx, accountId }, params) => {
      const { platformId, reason, durationMinutes } = params as { platformId: string; reason?: string; durationMinutes?: number };
      const ban = await createBan(deps, accountId, { platformId, reason: reason ?? null, durationMinutes }, actorOf(ctx));
      return {
        text: `banned ${ban.playerName ?? ban.platformId} on every server ${until(ban.expiresAt)} (ban ${ban.id})`,
        banId: ban.id,
        platformId: ban.platformId,
        expiresAt: ban.expiresAt,
      };
    },
  },
  'ban.revoke': {
    permission: 'bans.manage',
    scope: 'account',
    params: 'chat-params-ban-revoke.json',
    run: async ({ deps, ctx, accountId }, params) => {
      const ban = await removeBan(deps, accountId, (params.banId as string).toLowerCase(), actorOf(ctx));
      if (!ban) throw notFound('ban');
      return { text: `lifted the ban of ${ban.playerName ?? ban.platformId} (ban ${ban.id})`, banId: ban.id, platformId: ban.platformId };
    },
  },
  'queue.add': {
    permission: 'queue.manage',
    scope: 'account',
    params: 'chat-params-queue-add.json',
    // The entry covers all of the community's servers, as an admin's default does.
    run: async ({ deps, ctx, accountId }, params) => {
      const { platformId, durationDays } = params as { platformId: string; durationDays?: number };
      const { entry, created } = await queuePlayer(deps, accountId, { platformId, durationDays, serverIds: null }, actorOf(ctx));
      return {
        text: `${created ? 'added' : 'extended'} priority queue for ${entry.playerName ?? entry.platformId} on every server ${until(entry.expiresAt)}`,
        entryId: entry.id,
        expiresAt: entry.expiresAt,
      };
    },
  },
  'queue.remove': {
    permission: 'queue.manage',
    scope: 'account',
    params: 'chat-params-queue-remove.json',
    run: async ({ deps, ctx, accountId }, params) => {
      const platformId = await canonicalPlatformId(deps.db, params.platformId as string);
      const entries = await entriesOfPlayer(deps.db, accountId, platformId);
      if (entries.length === 0) throw notFound('priority queue entry');
      for (const entry of entries) await removeQueueEntry(deps, accountId, entry.id, actorOf(ctx));
      return {
        text: `removed ${platformId} from the priority queue (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'})`,
        removed: entries.length,
      };
    },
  },
  'server.restart': {
    permission: 'servers.control',
    scope: 'server',
    run: async ({ deps, ctx, serverId }) => {
      const command = await requestCommand(deps, ctx, serverId, 'restart', { delaySeconds: defaultRestartDelaySeconds, message: null });
      const text = `restart queued: the server's agent warns the players and restarts it ${defaultRestartDelaySeconds / 60} minutes after it takes the command`;
      return { text, commandId: command.id, status: command.status };
    },
  },
};
