// What the agent does on the game server through BattlEye RCon, in the game's words: the player
// list, a message to everyone, a kick, lock and shutdown. It also keeps the server's player table
// from RCon's own messages (who joined under which number, with which GUID), so a banned player is
// found the moment BattlEye names them. Texts sent are one line: no control character can smuggle
// a second command into a packet.
import { RconClient } from './rcon/client.ts';
import type { RconLog } from './rcon/client.ts';
import { parsePlayers, parseServerMessage } from './rcon/messages.ts';
import type { RconPlayer, ServerMessage } from './rcon/messages.ts';
import { playerName } from './adm-reader.ts';

/** One line of text for a command: control characters become spaces, trimmed. */
// eslint-disable-next-line no-control-regex
export const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

export interface RconSeat {
  number: number;
  /** As the agent names players (cleaned like the admin log's names). */
  name: string;
  guid?: string;
}

export class GameRcon {
  /** number -> seat, from the messages and the latest player list. */
  private readonly seats = new Map<number, RconSeat>();
  private readonly client: RconClient;
  private loggedInOnce = false;
  /** Seats kicked since their latest join, with who sat there: whoever asks (a command, a ban on join, a sweep), a seat is kicked once. */
  private readonly kicked = new Map<number, RconSeat>();

  constructor(settings: { host: string; port: number; password: string }, log: RconLog, client?: RconClient) {
    this.client = client ?? new RconClient({ ...settings, log });
    this.client.on('message', (text) => this.track(parseServerMessage(text)));
    this.client.on('login', () => {
      this.seats.clear();
      this.kicked.clear();
      this.loggedInOnce = true;
    });
  }

  /** RCon answered this agent at least once (so its silence now means the server is down). */
  get everLoggedIn(): boolean {
    return this.loggedInOnce;
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /** Server messages, parsed (for the ban guard). */
  onMessage(listener: (message: ServerMessage) => void): () => void {
    return this.client.on('message', (text) => listener(parseServerMessage(text)));
  }

  /** Logged in (again): the server may have restarted, its player table is new. */
  onLogin(listener: () => void): () => void {
    return this.client.on('login', listener);
  }

  start(): void {
    this.client.start();
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** The players on the server now (the lobby's included); refreshes the player table. */
  async players(): Promise<RconPlayer[]> {
    const players = parsePlayers(await this.client.command('players'));
    this.seats.clear();
    for (const p of players) this.seats.set(p.number, { number: p.number, name: playerName(p.name), guid: p.guid });
    return players;
  }

  /** The seat of the player of this name, from RCon's own messages and the latest list. */
  seatNamed(name: string): RconSeat | undefined {
    for (const seat of this.seats.values()) if (seat.name === name) return seat;
    return undefined;
  }

  say(text: string): Promise<string> {
    return this.client.command(`say -1 ${oneLine(text)}`);
  }

  /** Kicks the player on the seat, unless it was kicked since its latest join; false when it was. */
  async kick(number: number, reason: string): Promise<boolean> {
    if (this.kicked.has(number)) return false;
    this.kicked.set(number, this.seats.get(number) ?? { number, name: '' });
    try {
      await this.client.command(`kick ${number} ${oneLine(reason)}`);
      return true;
    } catch (err) {
      this.kicked.delete(number);
      throw err;
    }
  }

  /** A player kicked since their seat's latest join, found by `match`. */
  kickedSeat(match: (seat: RconSeat) => boolean): RconSeat | undefined {
    for (const seat of this.kicked.values()) if (match(seat)) return seat;
    return undefined;
  }

  lock(): Promise<string> {
    return this.client.command('#lock');
  }

  shutdown(): Promise<string> {
    return this.client.command('#shutdown');
  }

  private track(message: ServerMessage): void {
    switch (message.type) {
      case 'connected':
        // Someone new on the seat: a list read before may be stale, but this player was never kicked.
        this.kicked.delete(message.number);
        this.seats.set(message.number, { number: message.number, name: playerName(message.name) });
        break;
      case 'guid':
      case 'verified':
        this.seats.set(message.number, { number: message.number, name: playerName(message.name), guid: message.guid });
        break;
      case 'disconnected':
      case 'kicked':
        this.seats.delete(message.number);
        break;
      default:
        break;
    }
  }
}
