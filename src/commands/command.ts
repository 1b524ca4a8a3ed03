// Commands for a server's agent (restart, message, kick): their shapes and the rules of their life
// cycle, as pure functions of the service clock. A command waits (pending) until the agent's long
// poll takes it (sent), and ends with the agent's answer (done, failed) or, untaken or unanswered in
// time, expired: a restart must never fire hours late.

import type { KickParams, MessageParams, RestartParams, ServerCommand } from '../http/schema-types.ts';

export type { KickParams, MessageParams, RestartParams };
export const commandKinds = ['restart', 'message', 'kick'] as const satisfies readonly ServerCommand['kind'][];
export type CommandKind = (typeof commandKinds)[number];
export type CommandStatus = ServerCommand['status'];
export type CommandParams = ServerCommand['params'];
export type RequestedBy = ServerCommand['requestedBy'];

/** A command as stored (times as ISO texts). */
export interface CommandRecord {
  id: string;
  /** Creation order (a bigint as text): the order commands are handed and listed in. */
  seq: string;
  serverId: string;
  accountId: string;
  kind: CommandKind;
  params: CommandParams;
  status: CommandStatus;
  requestedBy: RequestedBy;
  createdAt: string;
  expiresAt: string;
  sentAt: string | null;
  finishedAt: string | null;
  detail: string | null;
}

export interface NewCommand {
  serverId: string;
  accountId: string;
  kind: CommandKind;
  params: CommandParams;
  requestedBy: RequestedBy;
  /** A scheduled restart: the shutdown time it is for (queued once per time). */
  scheduledFor?: string;
}

/** A command no agent took within this long expires. */
export const takeWithinMs = 10 * 60_000;
/** A command handed to an agent and not answered is handed again after this long. */
export const rehandAfterMs = 60_000;
/** A restart is handed again (to an agent restarted mid-countdown) until this long after it was due. */
export const restartGraceMs = 60_000;
/** The longest text BattlEye shows as a kick reason. */
export const kickReasonMax = 64;
export const defaultRestartDelaySeconds = 300;

/** "Banned" and the ban's reason, cut to what a kick reason holds (by characters, not UTF-16 units). */
export function banKickReason(reason: string | null | undefined): string {
  return cutChars(reason ? `Banned: ${reason}` : 'Banned', kickReasonMax);
}

export const cutChars = (text: string, max: number) => Array.from(text).slice(0, max).join('');

/** When a taken restart shuts the server down (by the service clock); null for other commands. */
export function dueAtMs(c: Pick<CommandRecord, 'kind' | 'params' | 'sentAt'>): number | null {
  if (c.kind !== 'restart' || c.sentAt === null) return null;
  return Date.parse(c.sentAt) + (c.params as RestartParams).delaySeconds * 1000;
}

/** The command as the API answers it: with its due time, and seconds to it as of `nowMs`. */
export function commandView(c: CommandRecord, nowMs: number): ServerCommand {
  const due = dueAtMs(c);
  return {
    id: c.id,
    serverId: c.serverId,
    kind: c.kind,
    params: c.params,
    status: c.status,
    requestedBy: c.requestedBy,
    createdAt: c.createdAt,
    expiresAt: c.expiresAt,
    sentAt: c.sentAt,
    dueAt: due === null ? null : new Date(due).toISOString(),
    dueInSeconds: due === null ? null : Math.round((due - nowMs) / 1000),
    finishedAt: c.finishedAt,
    detail: c.detail,
  };
}

export type CommandView = ReturnType<typeof commandView>;

/** What an agent answers for a kick of a player who is not on the server (not worth an audit entry). */
export const notPresentDetail = 'not on the server';
