// The game side of the fake BattlEye server: its player table and what the RCon commands do, in the
// texts a real DayZ server uses (DayZ 1.29 lines for connect, BE GUID, kick and disconnect; the
// `players` layout of BattlEye's tools). Where the real text is not known, the choice is marked
// "assumed". Server messages go out through `broadcast`, to every logged-in RCon client.

export interface FakePlayer {
  number: number;
  name: string;
  /** 32 hex digits; undefined until BattlEye has computed it ("-" in `players`). */
  guid: string | undefined;
  verified: boolean;
  ip: string;
  port: number;
  ping: number;
  lobby: boolean;
}

export interface JoinOptions {
  name: string;
  guid?: string;
  ip?: string;
  port?: number;
  ping?: number;
  /** Send "Verified GUID" (default true); false leaves it "(?)" in `players`. */
  verified?: boolean;
  lobby?: boolean;
}

export interface SayRecord {
  /** -1: everyone. */
  target: number;
  text: string;
  at: number;
}

/** What a command did: its reply, and whether the server goes down after replying (`#shutdown`). */
export interface Outcome {
  reply: string;
  shutdown?: true;
}

export class FakeGame {
  readonly players = new Map<number, FakePlayer>();
  readonly said: SayRecord[] = [];
  locked = false;
  shutdownAt: number | undefined;
  private nextNumber = 0;

  constructor(private readonly broadcast: (text: string) => void) {}

  /** A player joins: "connected", "- BE GUID:" and (unless verified is false) "Verified GUID". Returns their number. */
  join(options: JoinOptions): number {
    const number = this.nextNumber++;
    const p: FakePlayer = {
      number,
      name: options.name,
      guid: options.guid,
      verified: false,
      ip: options.ip ?? `10.0.${(number >> 8) & 255}.${number & 255}`,
      port: options.port ?? 2304,
      ping: options.ping ?? 40,
      lobby: options.lobby ?? false,
    };
    this.players.set(number, p);
    this.broadcast(`Player #${number} ${p.name} (${p.ip}:${p.port}) connected`);
    if (p.guid) {
      this.broadcast(`Player #${number} ${p.name} - BE GUID: ${p.guid}`);
      if (options.verified !== false) this.verify(number);
    }
    return number;
  }

  verify(number: number): void {
    const p = this.players.get(number);
    if (!p?.guid) return;
    p.verified = true;
    this.broadcast(`Verified GUID (${p.guid}) of player #${number} ${p.name}`);
  }

  leave(number: number): void {
    const p = this.players.get(number);
    if (!p) return;
    this.players.delete(number);
    this.broadcast(`Player #${number} ${p.name} disconnected`);
  }

  /** Runs one command for RCon admin `adminId`. */
  execute(text: string, adminId: number): Outcome {
    const [word = '', ...args] = text.split(' ');
    switch (word.toLowerCase()) {
      case 'players':
        return { reply: this.playersReply() };
      case 'kick':
        return this.kick(args);
      case 'say':
        return this.say(args, adminId);
      case '#lock':
        this.locked = true;
        return { reply: '' };
      case '#unlock':
        this.locked = false;
        return { reply: '' };
      case '#shutdown':
        this.shutdownAt = Date.now();
        return { reply: '', shutdown: true };
      // Not BattlEye's: answers its argument, so that tests can match replies to commands.
      case 'echo':
        return { reply: args.join(' ') };
      // Assumed text.
      default:
        return { reply: 'Unknown command' };
    }
  }

  playersReply(): string {
    const rows = [...this.players.values()].map((p) => {
      const guid = p.guid ? `${p.guid}(${p.verified ? 'OK' : '?'})` : '-';
      return `${String(p.number).padEnd(3)} ${`${p.ip}:${p.port}`.padEnd(21)} ${String(p.lobby ? -1 : p.ping).padEnd(4)} ${guid} ${p.name}${p.lobby ? ' (Lobby)' : ''}`;
    });
    return [
      'Players on server:',
      '[#] [IP Address]:[Port] [Ping] [GUID] [Name]',
      '-'.repeat(50),
      ...rows,
      `(${rows.length} players in total)`,
    ].join('\n');
  }

  private kick(args: string[]): Outcome {
    const p = this.players.get(Number(args[0]));
    // The reply to a kick is assumed empty, whether or not the number was taken.
    if (!p || !/^\d+$/.test(args[0] ?? '')) return { reply: '' };
    this.players.delete(p.number);
    const reason = args.slice(1).join(' ');
    this.broadcast(`Player #${p.number} ${p.name} (${p.guid ?? '-'}) has been kicked by BattlEye: Admin Kick (${reason})`);
    this.broadcast(`Player #${p.number} ${p.name} disconnected`);
    return { reply: '' };
  }

  private say(args: string[], adminId: number): Outcome {
    const target = Number(args[0]);
    const text = args.slice(1).join(' ');
    if (!Number.isInteger(target) || (target !== -1 && !this.players.has(target))) return { reply: '' };
    this.said.push({ target, text, at: Date.now() });
    const to = target === -1 ? 'Global' : `To ${this.players.get(target)!.name}`;
    this.broadcast(`RCon admin #${adminId}: (${to}) ${text}`);
    return { reply: '' };
  }
}
