// Agent commands end to end on the service's side: made by an admin (or the chat bot, a ban, a
// schedule) with its audit entry in one transaction, the server's waiting polls woken; handed to the
// agent's long poll; its answer recorded; expired when untaken or unanswered in time. The service
// itself never acts on a game host: the agent its owner runs does.
import type { Core } from '../core.ts';
import type { AppContext } from '../http/context.ts';
import { inTransaction } from '../store/db.ts';
import type { Queryable } from '../store/db.ts';
import { auditAction } from '../audit/audit.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { principalOf } from '../auth/authenticate.ts';
import { liveServerIdsOf } from '../servers/server.repo.ts';
import { expireCommands, findCommand, finishCommand, handCommands, insertCommands } from './command.repo.ts';
import { banKickReason, notPresentDetail } from './command.ts';
import type { CommandKind, CommandParams, CommandRecord, NewCommand, RequestedBy } from './command.ts';
import { wakeAgents } from './agent-waits.ts';
import type { AgentWaitsHeld } from './agent-waits.ts';

const iso = (ms: number) => new Date(ms).toISOString();
/** Commands one poll hands at most (the rest wait for the next). */
const handLimit = 50;

/** Who the request's principal is, as a command names its requester. */
export function requesterOf(ctx: AppContext): RequestedBy {
  const p = principalOf(ctx);
  return { type: p.via === 'chat' ? 'chat' : 'user', id: p.userId, name: p.username };
}

/** A command an admin (or a chat user through the bot) asked for; audited as `server.<kind>`. */
export async function requestCommand(
  deps: Core & AgentWaitsHeld,
  ctx: AppContext,
  serverId: string,
  kind: CommandKind,
  params: CommandParams,
): Promise<CommandRecord> {
  const nowIso = iso(deps.clock.now());
  const command: NewCommand = { serverId, accountId: principalOf(ctx).accountId, kind, params, requestedBy: requesterOf(ctx) };
  const created = await inTransaction(deps.db, async (tx) => {
    const [record] = await insertCommands(tx, [command], nowIso);
    await auditAction(
      deps,
      ctx,
      { action: `server.${kind}`, target: { type: 'server', id: serverId }, details: { commandId: record!.id, ...params } },
      tx,
    );
    return record!;
  });
  await wakeAgents(deps, [serverId]);
  return created;
}

/**
 * A ban's kicks, one per live server of the account, in the ban's own transaction: the agents kick
 * the player if present. Returns the servers to wake once it committed.
 */
export async function queueBanKicks(
  tx: Queryable,
  accountId: string,
  platformId: string,
  reason: string | null,
  by: RequestedBy,
  nowIso: string,
): Promise<string[]> {
  const serverIds = await liveServerIdsOf(tx, accountId);
  const params = { platformId, reason: banKickReason(reason) };
  await insertCommands(
    tx,
    serverIds.map((serverId) => ({ serverId, accountId, kind: 'kick' as const, params, requestedBy: by })),
    nowIso,
  );
  return serverIds;
}

/**
 * The agent's long poll: the server's waiting commands, now sent; when there are none, waits up to
 * `waitMs` for one (ended early when the agent hangs up or the process shuts down). Empty when none came.
 */
export async function takeCommands(
  deps: Core & AgentWaitsHeld,
  serverId: string,
  waitMs: number,
  signal: AbortSignal,
): Promise<CommandRecord[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    // Registered before looking, so a command made meanwhile wakes this wait.
    const wait = deps.agentWaits.register(serverId, signal);
    const handed = await handCommands(deps.db, serverId, iso(deps.clock.now()), handLimit);
    const left = deadline - Date.now();
    if (handed.length > 0 || left <= 0 || signal.aborted || deps.agentWaits.closed) {
      wait.cancel();
      return handed;
    }
    await wait.until(left);
  }
}

export type ResultOutcome = { record: CommandRecord } | { conflict: string } | undefined;

/** Records the agent's answer; an answer repeated (a retried request) is taken again as it was. */
export async function recordResult(
  deps: Core,
  accountId: string,
  serverId: string,
  commandId: string,
  status: 'done' | 'failed',
  detail: string | null,
): Promise<ResultOutcome> {
  const nowIso = iso(deps.clock.now());
  const finished = await inTransaction(deps.db, async (tx) => {
    const record = await finishCommand(tx, serverId, commandId, status, detail, nowIso);
    if (record && !(record.kind === 'kick' && detail === notPresentDetail)) await auditCommandEnd(tx, accountId, record, nowIso);
    return record;
  });
  if (finished) return { record: finished };
  const existing = await findCommand(deps.db, serverId, commandId);
  if (!existing) return undefined;
  if (existing.status === status && existing.detail === detail) return { record: existing };
  return {
    conflict: existing.status === 'pending' ? 'the command was not handed to an agent yet' : `the command is ${existing.status} already`,
  };
}

/** Worker job: commands untaken or unanswered past their time are expired and audited. */
export async function expireServerCommands(deps: Core): Promise<{ expired: number } | undefined> {
  const nowIso = iso(deps.clock.now());
  const expired = await inTransaction(deps.db, async (tx) => {
    const records = await expireCommands(tx, nowIso);
    for (const r of records) if (r.requestedBy.type !== 'system' || r.kind !== 'kick') await auditCommandEnd(tx, r.accountId, r, nowIso);
    return records;
  });
  return expired.length > 0 ? { expired: expired.length } : undefined;
}

function auditCommandEnd(db: Queryable, accountId: string, r: CommandRecord, atIso: string): Promise<void> {
  return insertAudit(db, {
    accountId,
    at: atIso,
    actorType: 'system',
    actorId: null,
    actorName: r.status === 'expired' ? 'service' : 'agent',
    action: `server.${r.kind}.${r.status}`,
    targetType: 'server',
    targetId: r.serverId,
    ip: null,
    details: { commandId: r.id, detail: r.detail },
  });
}
