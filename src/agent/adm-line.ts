// Reads one line of a DayZ admin log (.ADM) into what it says: a header, a connect, a hit, a kill,
// a death, a PlayerList block line, or a line the agent does not use. Pure; never throws.
// Formats: reference/dayz-formats.md and Bohemia's pluginadminlog.c.

export interface AdmPlayer {
  name: string;
  /** The id as logged (DayZ ID, console id, or Steam64); null for `id=Unknown`. */
  id: string | null;
  /** East, north, altitude; only used to measure melee distance, never sent. */
  pos: [number, number, number] | null;
}

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

const timed = /^(\d{2}):(\d{2}):(\d{2}) \| (.*)$/s;
const header = /^AdminLog started on (\d{4}-\d{2}-\d{2}) at (\d{2}):(\d{2}):(\d{2})\s*$/;
const pcConnect = /^Player "(.*)" is connected \(id=([^)]*)\)\s*$/s;
// The name ends at the first quote followed by the id group; (DEAD) and the space before `(id=` are optional.
const prefix = /^Player (["'])(.*?)\1(?: \(DEAD\))? ?\(id=([^ )]*)(?: pos=<([^>]*)>)?\)/s;
const playerList = /^##### PlayerList log: (\d+) players?\s*$/;
const hitBy = /^\[HP: [^\]]*\] hit by (.*)$/s;
const zoneDamage = /^ into ([A-Za-z_]+)\(-?\d+\) for [-+0-9.eE]+ damage(?: \(([^)]*)\))?/;
const withWeapon = /^ with (.*?)(?: from ([0-9.eE+]+) meters)?\s*$/s;
const diedStats = /^ died\. Stats> (?:Water: ([-0-9.eE+]+) Energy: ([-0-9.eE+]+)(?: Bleed sources: (-?\d+))?)?/;

const secondsOf = (h: string, m: string, s: string) => Number(h) * 3600 + Number(m) * 60 + Number(s);

function position(text: string | undefined): [number, number, number] | null {
  if (text === undefined) return null;
  const parts = text.split(',').map((p) => Number(p.trim()));
  return parts.length === 3 && parts.every(Number.isFinite) ? (parts as [number, number, number]) : null;
}

function readPlayer(text: string): { player: AdmPlayer; rest: string } | undefined {
  const m = prefix.exec(text);
  if (!m) return undefined;
  const id = m[3]!;
  return { player: { name: m[2]!, id: id === '' || id === 'Unknown' ? null : id, pos: position(m[4]) }, rest: text.slice(m[0].length) };
}

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
  return entry ? { kind: 'timed', seconds, entry } : { kind: 'unparsed', reason: 'unknown player line' };
}

function parseEntry(text: string): AdmEntry | undefined {
  if (text.startsWith('#####')) {
    if (/^#####\s*$/.test(text)) return { type: 'playerListEnd' };
    const list = playerList.exec(text);
    return list ? { type: 'playerListStart', count: Number(list[1]) } : undefined;
  }
  if (!text.startsWith('Player ')) return { type: 'unused' };
  const pc = pcConnect.exec(text);
  if (pc && !pc[1]!.includes('" (id=')) {
    const id = pc[2]!;
    return { type: 'connect', player: { name: pc[1]!, id: id === '' || id === 'Unknown' ? null : id, pos: null } };
  }
  const read = readPlayer(text);
  if (!read) return undefined;
  return entryAfterPrefix(read.player, read.rest);
}

function entryAfterPrefix(player: AdmPlayer, rest: string): AdmEntry | undefined {
  if (/^\s*$/.test(rest)) return { type: 'playerLine', player };
  if (/^ is connect(ed|ing)\s*$/.test(rest)) return { type: 'connect', player };
  if (/^ has been disconnected\s*$/.test(rest)) return { type: 'disconnect', player };
  if (rest.startsWith('[HP: ')) return parseHit(player, rest);
  if (rest.startsWith(' killed by ')) return parseKill(player, rest.slice(' killed by '.length));
  const died = diedStats.exec(rest);
  if (died) {
    const num = (s: string | undefined) => (s === undefined ? null : Number.isFinite(Number(s)) ? Number(s) : null);
    return { type: 'died', victim: player, water: num(died[1]), energy: num(died[2]), bleedSources: num(died[3]) };
  }
  if (/^ bled out\.?\s*$/.test(rest)) return { type: 'bledOut', victim: player };
  if (/^ drowned\.?\s*$/.test(rest)) return { type: 'drowned', victim: player };
  if (/^ committed suicide\.?\s*$/.test(rest)) return { type: 'suicide', victim: player };
  return { type: 'unused' };
}

function parseHit(victim: AdmPlayer, rest: string): AdmEntry | undefined {
  const m = hitBy.exec(rest);
  if (!m) return undefined;
  const by = m[1]!;
  if (by.startsWith('Player ')) {
    const attacker = readPlayer(by);
    if (!attacker) return undefined;
    const zone = zoneDamage.exec(attacker.rest);
    return { type: 'hit', victim, kind: 'player', attacker: attacker.player, zone: zone ? zone[1]! : null };
  }
  if (by.startsWith('FallDamage')) return { type: 'hit', victim, kind: 'fall', attacker: null, zone: null };
  if (by.startsWith('explosion')) return { type: 'hit', victim, kind: 'explosion', attacker: null, zone: null };
  if (/ with TransportHit\s*$/.test(by)) return { type: 'hit', victim, kind: 'vehicle', attacker: null, zone: null };
  if (/ with FireDamage\s*$/.test(by)) return { type: 'hit', victim, kind: 'environment', attacker: null, zone: null };
  const zoned = / into ([A-Za-z_]+)\(-?\d+\) for [-+0-9.eE]+ damage(?: \(([^)]*)\))?/.exec(by);
  const ammo = zoned?.[2] ?? '';
  const kind: HitKind = /Infected|Zombie/i.test(ammo) ? 'infected' : /Wolf|Bear|Animal/i.test(ammo) ? 'animal' : 'other';
  return { type: 'hit', victim, kind, attacker: null, zone: zoned ? zoned[1]! : null };
}

function parseKill(victim: AdmPlayer, by: string): AdmEntry | undefined {
  if (by.startsWith('Player ')) {
    const killer = readPlayer(by);
    if (!killer) return undefined;
    const w = withWeapon.exec(killer.rest);
    if (!w) return undefined;
    const distance = w[2] === undefined ? null : Number(w[2]);
    return { type: 'killedByPlayer', victim, killer: killer.player, weapon: w[1]!, distance: distance !== null && Number.isFinite(distance) ? distance : null };
  }
  // `killed by  with <explosive>`: the holder of the explosive is gone, so the name is empty.
  if (by.startsWith(' with ')) return { type: 'killedByUnknownWith', victim, weapon: by.slice(' with '.length).trim() };
  const source = by.trim();
  return source === '' ? undefined : { type: 'killedBy', victim, source };
}
