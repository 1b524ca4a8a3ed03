// Reads one line of a DayZ admin log (.ADM) into what it says: a header, a connect, a hit, a kill,
// a death, a PlayerList block line, or a line the agent does not use. Pure; never throws.
// Formats: reference/dayz-formats.md and Bohemia's pluginadminlog.c. A player line is read from its
// right end (adm-players.ts): the game's fixed tokens after the last id group decide the kind, and
// ids, positions, weapons, distances and zones come only from those tokens, never from a name. A
// line that does not read one way only is refused as unparsed rather than guessed.
import { idGroups, idOf, playerAt, twoPlayers } from './adm-players.ts';
import type { AdmPlayer, IdGroup, Quote } from './adm-players.ts';

export type { AdmPlayer } from './adm-players.ts';

export type HitKind = 'player' | 'infected' | 'animal' | 'vehicle' | 'fall' | 'explosion' | 'environment' | 'other';

export type AdmEntry =
  | { type: 'connect'; player: AdmPlayer }
  | { type: 'disconnect'; player: AdmPlayer }
  | { type: 'playerListStart'; count: number }
  | { type: 'playerListEnd' }
  | { type: 'playerLine'; player: AdmPlayer }
  | { type: 'hit'; victim: AdmPlayer; kind: HitKind; attacker: AdmPlayer | null; zone: string | null }
  | { type: 'killedByPlayer'; victim: AdmPlayer; killer: AdmPlayer; weapon: string; distance: number | null }
  | { type: 'killedBy'; victim: AdmPlayer; source: string }
  | { type: 'killedByUnknownWith'; victim: AdmPlayer; weapon: string }
  | { type: 'died'; victim: AdmPlayer; water: number | null; energy: number | null; bleedSources: number | null }
  | { type: 'bledOut' | 'drowned' | 'suicide'; victim: AdmPlayer }
  /** A line of a known kind the agent has no event for (chat, building, unconscious, ...). */
  | { type: 'unused' };

export type AdmLine =
  | { kind: 'header'; date: string; seconds: number }
  | { kind: 'blank' }
  | { kind: 'timed'; seconds: number; entry: AdmEntry }
  | { kind: 'unparsed'; reason: string };

/** A player line that does not read one way only, and why. */
interface Refused {
  refused: string;
}

const timed = /^(\d{2}):(\d{2}):(\d{2}) \| (.*)$/s;
const header = /^AdminLog started on (\d{4}-\d{2}-\d{2}) at (\d{2}):(\d{2}):(\d{2})\s*$/;
const playerList = /^##### PlayerList log: (\d+) players?\s*$/;
const float = String.raw`[-+0-9.eE]+`;
// PC: `Player "<name>" is connected (id=<id>)`, the only line whose id group follows a name without
// a position and ends the line. Greedy: the name runs to the last such ending.
const pcConnectOf = (quote: Quote) => new RegExp(`^(.*)${quote} is connected \\(id=([^\\s"'()<>]*)\\)$`, 's');
const pcConnect: Record<Quote, RegExp> = { '"': pcConnectOf('"'), "'": pcConnectOf("'") };
// What comes between the victim's group and the other player's name (sticky: tried at a group's end).
const killedByOf = (quote: Quote) => new RegExp(` killed by Player ${quote}`, 'y');
const hitByOf = (quote: Quote) => new RegExp(`\\[HP: [^\\]\\s"']*\\] hit by Player ${quote}`, 'y');
const killedByPlayer: Record<Quote, RegExp> = { '"': killedByOf('"'), "'": killedByOf("'") };
const hitByPlayer: Record<Quote, RegExp> = { '"': hitByOf('"'), "'": hitByOf("'") };
// The tails after the last group of a two-player line. `damage` may be followed by two spaces: a
// blocked hit is ` into Block(n) for 0 damage ` before ` with <weapon>`.
const zoneDamage = String.raw` into ([A-Za-z_]+)\(-?\d+\) for ${float} damage(?: \(([^()]*)\))?`;
const withWeapon = new RegExp(`^ with (.*?)(?: from (${float}) meters)?$`, 's');
const playerHit = new RegExp(`^${zoneDamage}(?: +with .*)?$`, 's');
const otherHit = new RegExp(`${zoneDamage}$`, 's');
const hitBy = /^\[HP: [^\]]*\] hit by (.*)$/s;
const diedStats = /^ died\. Stats> (?:Water: ([-0-9.eE+]+) Energy: ([-0-9.eE+]+)(?: Bleed sources: (-?\d+))?)?/;

const secondsOf = (h: string, m: string, s: string) => Number(h) * 3600 + Number(m) * 60 + Number(s);
const finite = (s: string | undefined) => (s === undefined || !Number.isFinite(Number(s)) ? null : Number(s));

export function parseAdmLine(line: string): AdmLine {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  const t = timed.exec(text);
  if (!t) {
    if (/^\s*$/.test(text) || /^\*+\s*$/.test(text)) return { kind: 'blank' };
    const h = header.exec(text);
    if (h) return { kind: 'header', date: h[1]!, seconds: secondsOf(h[2]!, h[3]!, h[4]!) };
    return { kind: 'unparsed', reason: 'no HH:MM:SS | prefix' };
  }
  const seconds = secondsOf(t[1]!, t[2]!, t[3]!);
  if (seconds >= 86_400 || Number(t[2]) > 59 || Number(t[3]) > 59) return { kind: 'unparsed', reason: 'time out of range' };
  const entry = parseEntry(t[4]!);
  return 'refused' in entry ? { kind: 'unparsed', reason: entry.refused } : { kind: 'timed', seconds, entry };
}

function parseEntry(text: string): AdmEntry | Refused {
  if (text.startsWith('#####')) {
    if (/^#####\s*$/.test(text)) return { type: 'playerListEnd' };
    const list = playerList.exec(text);
    return list ? { type: 'playerListStart', count: Number(list[1]) } : { refused: 'an unknown ##### line' };
  }
  if (!text.startsWith('Player ')) return { type: 'unused' };
  const quote = text[7];
  if (quote !== '"' && quote !== "'") return { refused: 'a player line without a quoted name' };
  // What follows the opening quote; trailing spaces (ranged lines end with `meters `) dropped.
  const body = text.slice(8).trimEnd();
  const pc = pcConnect[quote].exec(body);
  if (pc) return { type: 'connect', player: { name: pc[1]!, id: idOf(pc[2]!), pos: null } };
  const groups = idGroups(body, quote);
  const last = groups.at(-1);
  if (!last) return { refused: 'a player line without an (id=...) group' };
  const tail = body.slice(last.end);
  if (tail.startsWith(' with ')) return killByPlayer(body, groups, quote, tail);
  if (tail.startsWith(' into ')) return hitByAPlayer(body, groups, quote, tail);
  return entryOfOne(playerAt(body, 0, last), tail);
}

/** `<victim> killed by Player "<killer>" (id=... pos=<...>) with <weapon>[ from <d> meters]`. */
function killByPlayer(body: string, groups: IdGroup[], quote: Quote, tail: string): AdmEntry | Refused {
  const players = twoPlayers(body, groups, killedByPlayer[quote]);
  if ('fits' in players)
    return {
      refused: players.fits === 0 ? 'a kill by a player with no victim before it' : 'a kill whose two names read more than one way',
    };
  const w = withWeapon.exec(tail)!;
  return { type: 'killedByPlayer', victim: players.first, killer: players.second, weapon: w[1]!, distance: finite(w[2]) };
}

/** `<victim>[HP: <f>] hit by Player "<attacker>" (id=... pos=<...>) into <Zone>(<n>) for <d> damage (<ammo>)[ with ...]`. */
function hitByAPlayer(body: string, groups: IdGroup[], quote: Quote, tail: string): AdmEntry | Refused {
  const zone = playerHit.exec(tail);
  if (!zone) return { refused: 'a hit by a player without its zone and damage' };
  const players = twoPlayers(body, groups, hitByPlayer[quote]);
  if ('fits' in players)
    return { refused: players.fits === 0 ? 'a hit by a player with no victim before it' : 'a hit whose two names read more than one way' };
  return { type: 'hit', victim: players.first, kind: 'player', attacker: players.second, zone: zone[1]! };
}

/** A line of one player: what follows its group (`tail`, the game's own text) says what it is. */
function entryOfOne(player: AdmPlayer, tail: string): AdmEntry | Refused {
  if (tail === '') return { type: 'playerLine', player };
  if (/^ is connect(?:ed|ing)$/.test(tail)) return { type: 'connect', player };
  if (tail === ' has been disconnected') return { type: 'disconnect', player };
  if (tail.startsWith('[HP: ')) return hitByOther(player, tail);
  if (tail.startsWith(' killed by ')) return killedByOther(player, tail.slice(' killed by '.length));
  const died = diedStats.exec(tail);
  if (died) return { type: 'died', victim: player, water: finite(died[1]), energy: finite(died[2]), bleedSources: finite(died[3]) };
  if (/^ bled out\.?$/.test(tail)) return { type: 'bledOut', victim: player };
  if (/^ drowned\.?$/.test(tail)) return { type: 'drowned', victim: player };
  if (/^ committed suicide\.?$/.test(tail)) return { type: 'suicide', victim: player };
  return { type: 'unused' };
}

function hitByOther(victim: AdmPlayer, tail: string): AdmEntry | Refused {
  const m = hitBy.exec(tail);
  if (!m) return { refused: 'a hit without `hit by`' };
  const by = m[1]!;
  // A player's hit ends with that player's group: `Player ` with none after it is no line of the game's.
  if (by.startsWith('Player ')) return { refused: 'a hit by a player with no id group' };
  if (by.startsWith('FallDamage')) return { type: 'hit', victim, kind: 'fall', attacker: null, zone: null };
  if (by.startsWith('explosion')) return { type: 'hit', victim, kind: 'explosion', attacker: null, zone: null };
  if (/ with TransportHit$/.test(by)) return { type: 'hit', victim, kind: 'vehicle', attacker: null, zone: null };
  if (/ with FireDamage$/.test(by)) return { type: 'hit', victim, kind: 'environment', attacker: null, zone: null };
  const zoned = otherHit.exec(by);
  const ammo = zoned?.[2] ?? '';
  const kind: HitKind = /Infected|Zombie/i.test(ammo) ? 'infected' : /Wolf|Bear|Animal/i.test(ammo) ? 'animal' : 'other';
  return { type: 'hit', victim, kind, attacker: null, zone: zoned ? zoned[1]! : null };
}

function killedByOther(victim: AdmPlayer, by: string): AdmEntry | Refused {
  if (by.startsWith('Player ')) return { refused: 'a kill by a player with no id group' };
  // `killed by  with <explosive>`: the holder of the explosive is gone, so the name is empty.
  if (by.startsWith(' with ')) return { type: 'killedByUnknownWith', victim, weapon: by.slice(' with '.length).trim() };
  const source = by.trim();
  return source === '' ? { refused: 'a kill by nothing' } : { type: 'killedBy', victim, source };
}
