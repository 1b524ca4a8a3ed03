// Turns the lines of one admin-log file, in order, into ingest events (docs/agent.md): dates from the
// `AdminLog started on` headers, day rollover, the server's UTC offset, PlayerList blocks, kills
// with the killer's last hit, other deaths with their cause. Deterministic: reading the same lines
// again gives the same events with the same ids. Positions are read only to measure melee distance.
import type { DeathCause, Player, WireEvent } from '../ingest/events.ts';
import { platformIdKind } from '../identities/id-forms.ts';
import { parseAdmLine } from './adm-line.ts';
import type { AdmEntry, AdmPlayer, HitKind } from './adm-line.ts';
import { eventId } from './event-id.ts';

/** A hit this recent (log time, the same second included) names the zone of a kill. */
export const hitMemoryMs = 10_000;
/** Death lines of one player this close together are one death (`died. Stats>` then `bled out`). */
export const sameDeathMs = 10_000;
/** Log time going back more than this means the day rolled over. */
const rolloverMs = 12 * 3600_000;
const dayMs = 86_400_000;

export interface ReaderCounts {
  lines: number;
  events: number;
  /** Lines of a kind the agent has no event for, or naming no usable id. */
  skipped: number;
  /** Lines it could not read: counted and logged, never fatal. */
  unparsed: number;
}

interface Hit {
  kind: HitKind;
  attackerId: string | null;
  zone: string | null;
  ms: number;
}

export interface ReaderOptions {
  serverId: string;
  fileName: string;
  /** Minutes east of UTC of the server's clock; null: the agent host's own zone. */
  utcOffsetMinutes: number | null;
  onUnparsed?: (offset: number, reason: string, line: string) => void;
}

const cleanText = (text: string, max: number, fallback: string) => {
  // eslint-disable-next-line no-control-regex
  const chars = Array.from(text.replace(/[\u0000-\u001f\u007f]/g, '').trim());
  return chars.length === 0 ? fallback : chars.slice(0, max).join('');
};

/** A player's name as the agent sends it (and matches an RCon name against it). */
export const playerName = (raw: string) => cleanText(raw, 128, 'Survivor');

const distance3d = (a: AdmPlayer['pos'], b: AdmPlayer['pos']) =>
  a && b ? Math.round(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) * 10) / 10 : 0;

export class AdmReader {
  readonly counts: ReaderCounts = { lines: 0, events: 0, skipped: 0, unparsed: 0 };
  private dayStartMs: number | null = null;
  private lastMs: number | null = null;
  private inPlayerList = false;
  private readonly lastHitOn = new Map<string, Hit>();
  private readonly lastHitBy = new Map<string, Hit>();
  private readonly lastDeathOf = new Map<string, number>();

  constructor(private readonly opts: ReaderOptions) {}

  /** The events of one complete line (without its line end) that starts at byte `offset`. */
  read(line: string, offset: number): WireEvent[] {
    this.counts.lines += 1;
    const parsed = parseAdmLine(line);
    const events: WireEvent[] = [];
    const id = () => eventId(this.opts.serverId, this.opts.fileName, offset);
    switch (parsed.kind) {
      case 'blank':
        break;
      case 'header':
        this.startDay(parsed.date, parsed.seconds);
        events.push({ id: id(), type: 'server.started', ts: this.lastMs! });
        break;
      case 'unparsed':
        this.unparsed(offset, parsed.reason, line);
        break;
      case 'timed': {
        if (this.dayStartMs === null) {
          this.unparsed(offset, 'a timed line before any AdminLog header', line);
          break;
        }
        const ms = this.timeOf(parsed.seconds);
        const event = this.eventOf(parsed.entry, ms, id);
        if (event) events.push(event);
        else this.counts.skipped += 1;
      }
    }
    this.counts.events += events.length;
    return events;
  }

  /** A line too long to be an admin-log line (its text was not kept): counted as not understood. */
  readOverlong(offset: number): void {
    this.counts.lines += 1;
    this.unparsed(offset, 'a line longer than 64 KiB', '');
  }

  private unparsed(offset: number, reason: string, line: string): void {
    this.counts.unparsed += 1;
    this.opts.onUnparsed?.(offset, reason, line);
  }

  private startDay(date: string, seconds: number): void {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    const midnight =
      this.opts.utcOffsetMinutes === null ? new Date(y, m - 1, d).getTime() : Date.UTC(y, m - 1, d) - this.opts.utcOffsetMinutes * 60_000;
    this.dayStartMs = midnight;
    this.lastMs = midnight + seconds * 1000;
    this.inPlayerList = false;
    this.lastHitOn.clear();
    this.lastHitBy.clear();
    this.lastDeathOf.clear();
  }

  /** Epoch ms of a time of day: the day rolls over when the clock goes back more than 12 h. */
  private timeOf(seconds: number): number {
    let ms = this.dayStartMs! + seconds * 1000;
    if (this.lastMs !== null && ms < this.lastMs - rolloverMs) {
      this.dayStartMs! += dayMs;
      ms += dayMs;
    }
    this.lastMs = ms;
    return ms;
  }

  private eventOf(entry: AdmEntry, ms: number, id: () => string): WireEvent | undefined {
    switch (entry.type) {
      case 'connect':
      case 'disconnect': {
        const p = this.player(entry.player);
        return p && { id: id(), type: entry.type === 'connect' ? 'player.connect' : 'player.disconnect', ts: ms, ...p };
      }
      case 'playerListStart':
        this.inPlayerList = true;
        return { id: id(), type: 'server.status', ts: ms, online: true, players: entry.count };
      case 'playerListEnd':
        this.inPlayerList = false;
        return undefined;
      case 'playerLine': {
        const p = this.inPlayerList ? this.player(entry.player) : undefined;
        return p && { id: id(), type: 'player.heartbeat', ts: ms, ...p };
      }
      case 'hit':
        this.remember(entry.victim.id, { kind: entry.kind, attackerId: entry.attacker?.id ?? null, zone: entry.zone, ms });
        return undefined;
      case 'unused':
        return undefined;
      default:
        return this.death(entry, ms, id);
    }
  }

  private death(
    entry: Exclude<AdmEntry, { type: 'connect' | 'disconnect' | 'playerListStart' | 'playerListEnd' | 'playerLine' | 'hit' | 'unused' }>,
    ms: number,
    id: () => string,
  ): WireEvent | undefined {
    const victim = this.player(entry.victim);
    if (!victim) return undefined;
    const previous = this.lastDeathOf.get(victim.platformId);
    if (previous !== undefined && ms - previous <= sameDeathMs) return undefined;
    const event = this.deathEvent(entry, victim, ms, id);
    if (event) this.lastDeathOf.set(victim.platformId, ms);
    return event;
  }

  private deathEvent(entry: Parameters<AdmReader['death']>[0], victim: Player, ms: number, id: () => string): WireEvent | undefined {
    const died = (cause: DeathCause): WireEvent => ({ id: id(), type: 'death', ts: ms, ...victim, cause });
    const lastHit = this.recent(this.lastHitOn.get(victim.platformId), ms);
    switch (entry.type) {
      case 'killedByPlayer': {
        const killer = this.player(entry.killer);
        if (!killer) return died(lastHit ? causeOfHit(lastHit.kind) : 'other');
        if (killer.platformId === victim.platformId) return died('suicide');
        const hit = this.recent(this.lastHitBy.get(`${victim.platformId} ${killer.platformId}`), ms);
        const weapon = cleanText(entry.weapon.replace(/^\((.*)\)$/, '$1'), 128, 'Unknown');
        const distance = entry.distance ?? distance3d(entry.victim.pos, entry.killer.pos);
        return {
          id: id(),
          type: 'kill',
          ts: ms,
          killer,
          victim,
          weapon,
          distance: Math.min(100_000, Math.max(0, Math.round(distance * 100) / 100)),
          isHeadshot: hit?.zone === 'Head',
          ...(hit?.zone ? { hitZone: hit.zone.slice(0, 64) } : {}),
        };
      }
      case 'killedByUnknownWith':
        return died('explosion');
      case 'killedBy':
        return died(causeOfSource(entry.source) ?? (lastHit ? causeOfHit(lastHit.kind) : 'other'));
      case 'died':
        if (
          lastHit &&
          (lastHit.kind === 'fall' || lastHit.kind === 'explosion' || lastHit.kind === 'vehicle' || lastHit.kind === 'environment')
        )
          return died(lastHit.kind);
        if ((entry.bleedSources ?? 0) > 0) return died('bleeding');
        if ((entry.water !== null && entry.water <= 0) || (entry.energy !== null && entry.energy <= 0)) return died('environment');
        return died('other');
      case 'bledOut':
        return died('bleeding');
      case 'drowned':
        return died('environment');
      case 'suicide':
        return died('suicide');
    }
  }

  private recent(hit: Hit | undefined, ms: number): Hit | undefined {
    return hit && ms - hit.ms <= hitMemoryMs && ms >= hit.ms ? hit : undefined;
  }

  private remember(victimId: string | null, hit: Hit): void {
    if (victimId === null) return;
    // Bounded: hits older than the memory window are dropped once the maps grow.
    if (this.lastHitOn.size + this.lastHitBy.size > 20_000) this.forgetBefore(hit.ms - hitMemoryMs);
    this.lastHitOn.set(victimId, hit);
    if (hit.attackerId !== null) this.lastHitBy.set(`${victimId} ${hit.attackerId}`, hit);
  }

  private forgetBefore(ms: number): void {
    for (const map of [this.lastHitOn, this.lastHitBy]) for (const [k, h] of map) if (h.ms < ms) map.delete(k);
    for (const [k, at] of this.lastDeathOf) if (at < ms) this.lastDeathOf.delete(k);
  }

  /** The player as ingestion takes it; undefined for `id=Unknown` or an id of no known form. */
  private player(p: AdmPlayer): Player | undefined {
    if (p.id === null || platformIdKind(p.id) === undefined) return undefined;
    return { platformId: p.id, name: playerName(p.name) };
  }
}

/** The cause a `killed by <ClassName>` names by itself (vanilla class names); undefined: look at the last hit. */
function causeOfSource(source: string): DeathCause | undefined {
  if (/^Zmb|Infected|Zombie/i.test(source)) return 'infected';
  if (/^Animal_|Wolf|Bear(?!Trap)/i.test(source)) return 'animal';
  if (/FallDamage/i.test(source)) return 'fall';
  if (/Grenade|LandMine|Claymore|Explosive|Plastic|ImprovisedExplosive/i.test(source)) return 'explosion';
  if (/^(CivilianSedan|Sedan_|Hatchback_|OffroadHatchback|Offroad_|Truck_|Van_|Boat_|Bus_)/.test(source)) return 'vehicle';
  if (/Fireplace|FireDamage/i.test(source)) return 'environment';
  return undefined;
}

function causeOfHit(kind: HitKind): DeathCause {
  return kind === 'player' ? 'other' : kind;
}
