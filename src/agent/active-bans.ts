// The bans in force on this server, as the agent holds them to kick a banned player the moment
// BattlEye names them (GET /api/servers/:id/bans/active, refreshed by ETag). A list over 8 MiB, or
// one with an entry whose ids are not of their kind, is refused whole: the agent keeps the list it
// had (and says why, once per reason).
import { isBattleyeGuid, isDayzId, isSteam64, platformIdKind } from '../identities/id-forms.ts';
import { banKickReason } from '../commands/command.ts';
import { callService, describeAnswer } from './service-calls.ts';
import type { ServiceTarget } from './service-calls.ts';
import type { AgentLog } from './sender.ts';

export const activeBansMaxBytes = 8 * 1024 * 1024;

export interface HeldBan {
  banId: string;
  /** What the kick says: "Banned: <reason>", at most 64 characters. */
  kickReason: string;
  expiresAtMs: number | null;
}

interface WireBan {
  banId: string;
  platformId: string;
  steam64: string | null;
  dayzId: string | null;
  beGuid: string | null;
  reason: string | null;
  expiresAt: string | null;
}

const nullOr = (value: unknown, valid: (text: string) => boolean) => value === null || (typeof value === 'string' && valid(value));

/** Why an answer is no list of bans the agent may hold; undefined when it is one. */
export function activeBansProblem(body: unknown): string | undefined {
  const bans = (body as { bans?: unknown })?.bans;
  if (!Array.isArray(bans)) return 'not a list of bans';
  for (const [i, ban] of bans.entries()) {
    const b = ban as Partial<WireBan> | null;
    const ok =
      !!b &&
      typeof b.banId === 'string' &&
      b.banId.length <= 64 &&
      typeof b.platformId === 'string' &&
      platformIdKind(b.platformId) !== undefined &&
      nullOr(b.steam64, isSteam64) &&
      nullOr(b.dayzId, isDayzId) &&
      nullOr(b.beGuid, isBattleyeGuid) &&
      nullOr(b.reason, (r) => r.length <= 1000) &&
      nullOr(b.expiresAt, (at) => !Number.isNaN(Date.parse(at)));
    if (!ok) return `ban ${i} is not a ban with ids of their kinds`;
  }
  return undefined;
}

export class ActiveBans {
  private byId = new Map<string, HeldBan>();
  private etag: string | undefined;
  private readonly refused = new Set<string>();

  constructor(
    private readonly target: ServiceTarget,
    private readonly opts: { requestTimeoutMs: number; log: AgentLog; now: () => number },
  ) {}

  /** The ban in force on the first of these ids (any form: Steam64, DayZ ID, BattlEye GUID, console id). */
  find(...ids: (string | undefined)[]): HeldBan | undefined {
    for (const id of ids) {
      const ban = id === undefined ? undefined : this.byId.get(id);
      if (ban && (ban.expiresAtMs === null || ban.expiresAtMs > this.opts.now())) return ban;
    }
    return undefined;
  }

  get size(): number {
    return new Set(this.byId.values()).size;
  }

  /** Asks the service for the list (If-None-Match: the tag held); true when it changed. */
  async refresh(): Promise<boolean> {
    const answer = await callService(this.target, '/bans/active', {
      headers: this.etag ? { 'if-none-match': this.etag } : {},
      timeoutMs: this.opts.requestTimeoutMs,
      maxBytes: activeBansMaxBytes,
    });
    if (answer.status === 304) return false;
    if (answer.status !== 200) {
      this.opts.log.warn({ reason: describeAnswer(answer) }, 'active bans not refreshed; the agent keeps the list it has');
      return false;
    }
    let body: unknown;
    const problem = answer.over
      ? 'more than 8 MiB'
      : (() => {
          try {
            body = JSON.parse(answer.bytes.toString('utf8'));
          } catch {
            return 'not JSON';
          }
          return activeBansProblem(body);
        })();
    if (problem) {
      if (!this.refused.has(problem)) this.opts.log.warn({ reason: problem }, 'active bans refused; the agent keeps the list it has');
      this.refused.add(problem);
      return false;
    }
    this.hold((body as { bans: WireBan[] }).bans);
    this.etag = answer.headers.get('etag') ?? undefined;
    return true;
  }

  private hold(bans: WireBan[]): void {
    const byId = new Map<string, HeldBan>();
    for (const b of bans) {
      const held = {
        banId: b.banId,
        kickReason: banKickReason(b.reason),
        expiresAtMs: b.expiresAt === null ? null : Date.parse(b.expiresAt),
      };
      for (const id of [b.platformId, b.steam64, b.dayzId, b.beGuid]) if (id) byId.set(id, held);
    }
    this.byId = byId;
  }
}
