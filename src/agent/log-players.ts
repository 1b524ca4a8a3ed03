// Who is on the game server as its admin log tells it: the connected players (connects,
// disconnects, and each PlayerList block, which lists everyone every 5 minutes), and each name's
// id as the log gives it (what an RCon player, known by name and BattlEye GUID, is matched with).
// A new log file is a server that just started: nobody is on it yet.
import type { WireEvent } from '../ingest/events.ts';

export class LogPlayers {
  /** platformId -> name, of the players connected now. */
  readonly connected = new Map<string, string>();
  /** Log time (epoch ms) of the newest PlayerList block, or of the server's start; null before either. */
  listedAtMs: number | null = null;
  /** name -> platformId, for names seen once only (two players of one name match neither). */
  private readonly idByName = new Map<string, string | null>();

  observe(event: WireEvent): void {
    const ts = typeof event.ts === 'number' ? event.ts : Date.parse(event.ts);
    switch (event.type) {
      case 'server.started':
        this.connected.clear();
        this.idByName.clear();
        this.listedAtMs = ts;
        break;
      case 'server.status':
        // The agent's status events come from PlayerList blocks: the players listed next are everyone.
        this.connected.clear();
        this.listedAtMs = ts;
        break;
      case 'player.connect':
      case 'player.heartbeat':
        this.connected.set(event.platformId, event.name);
        this.learn(event.name, event.platformId);
        break;
      case 'player.disconnect':
        this.connected.delete(event.platformId);
        break;
      default:
        break;
    }
  }

  /** The log's id of the player of this name, if the name is known and not shared. */
  idOf(name: string): string | undefined {
    return this.idByName.get(name) ?? undefined;
  }

  /** The name the log gives the player of this id, if seen. */
  nameOf(platformId: string): string | undefined {
    for (const [name, id] of this.idByName) if (id === platformId) return name;
    return undefined;
  }

  private learn(name: string, platformId: string): void {
    const known = this.idByName.get(name);
    if (known === undefined) {
      // Bounded: a long-running server's log names every player who ever joined.
      if (this.idByName.size >= 20_000) this.idByName.delete(this.idByName.keys().next().value!);
      this.idByName.set(name, platformId);
    } else if (known !== platformId) this.idByName.set(name, null);
  }
}
