// Kicks a banned player the moment the game names them: BattlEye's GUID message as they join (the
// GUID of a Steam64 ban), the admin log's connect line (a DayZ ID or console ban, matched to their
// RCon seat by name), and, whenever the list of bans changes, everyone on the server at once. A seat
// is kicked once since its latest join (a player list read just before a kick is not acted on
// twice); the kick says "Banned: <reason>".
import { battleyeGuidOf, dayzIdOf, isSteam64 } from '../identities/id-forms.ts';
import type { WireEvent } from '../ingest/events.ts';
import type { ActiveBans, HeldBan } from './active-bans.ts';
import type { GameRcon } from './game-rcon.ts';
import type { ServerMessage } from './rcon/messages.ts';
import { playerName } from './adm-reader.ts';
import type { AgentLog } from './sender.ts';

/** A connect line older than this (a log read again at start) kicks nobody: that join is long past. */
const liveConnectMs = 60_000;

export class BanGuard {
  constructor(
    private readonly rcon: GameRcon,
    private readonly bans: ActiveBans,
    private readonly log: AgentLog,
    private readonly now: () => number,
  ) {}

  onRconMessage(message: ServerMessage): void {
    if (message.type !== 'guid' && message.type !== 'verified') return;
    const ban = this.bans.find(message.guid);
    if (ban) void this.kick(message.number, message.name, ban, 'BattlEye named their GUID');
  }

  onLogEvent(event: WireEvent): void {
    if (event.type !== 'player.connect' || this.now() - Number(event.ts) > liveConnectMs) return;
    const ban = this.bans.find(...idForms(event.platformId));
    const seat = ban && this.rcon.seatNamed(event.name);
    if (ban && seat) void this.kick(seat.number, seat.name, ban, 'the admin log named their id');
  }

  /** Everyone on the server against the bans held (after they changed, and at start). */
  async sweep(idOfName: (name: string) => string | undefined): Promise<void> {
    if (!this.rcon.connected) return;
    for (const p of await this.rcon.players()) {
      const logId = idOfName(playerName(p.name));
      const ban = this.bans.find(p.guid, ...(logId ? idForms(logId) : []));
      if (ban) await this.kick(p.number, p.name, ban, 'on the server when the ban came');
    }
  }

  /** Kicks the seat (once since its latest join, whoever else asked: GameRcon keeps count). */
  private async kick(number: number, name: string, ban: HeldBan, why: string): Promise<void> {
    try {
      if (await this.rcon.kick(number, ban.kickReason))
        this.log.info({ seat: number, name, banId: ban.banId, why }, 'banned player kicked');
    } catch (err) {
      this.log.warn({ seat: number, banId: ban.banId, err: (err as Error).message }, 'banned player not kicked');
    }
  }
}

/** A platform id and the forms derived from it (a Steam64's DayZ ID and BattlEye GUID). */
const idForms = (platformId: string) =>
  isSteam64(platformId) ? [platformId, dayzIdOf(platformId), battleyeGuidOf(platformId)] : [platformId];
