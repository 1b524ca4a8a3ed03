// What the agent reads from BattlEye RCon texts: the `players` reply and the server messages about
// players. Pure. Numbers, GUIDs and addresses are taken from the fixed tokens at the fixed end of a
// line (the number and "Verified GUID" at its start, the address, GUID or "disconnected" at its end),
// never searched for inside it, so a name (any text, "Verified GUID (...)" or "(1.2.3.4:5) connected"
// included) cannot change them. Formats: real DayZ 1.29 lines (connect, BE GUID, chat, kick,
// disconnect) and BattlEye's RCon tools (players list, Verified GUID); see docs in the tests.

export interface RconPlayer {
  /** The player's slot number on the server: what `kick`, `say` and `ban` take. */
  number: number;
  ip: string;
  port: number;
  /** -1 while joining. */
  ping: number;
  /** 32 lower-case hex digits; undefined ("-") before BattlEye has computed it. */
  guid: string | undefined;
  /** "(OK)"; "(?)" while the GUID is unverified. */
  verified: boolean;
  name: string;
  /** Still joining. */
  lobby: boolean;
}

export type ServerMessage =
  | { type: 'connected'; number: number; name: string; ip: string; port: number }
  /** "- BE GUID:": computed by the server, not yet checked with the BattlEye master. */
  | { type: 'guid'; number: number; name: string; guid: string }
  | { type: 'verified'; number: number; name: string; guid: string }
  | { type: 'disconnected'; number: number; name: string }
  /** By an admin ("Admin Kick (reason)") or by BattlEye itself; the GUID is absent when it was not known yet. */
  | { type: 'kicked'; number: number; name: string; guid: string | undefined; reason: string }
  /** Chat, RCon admin logins and says, BattlEye master notices, anything else. */
  | { type: 'other'; text: string };

const guidToken = '([0-9a-fA-F]{32})';
/** An address without spaces or parentheses (IPv4, or a bracketed IPv6 should one appear), then :port. */
const addressToken = '([^\\s()]+):(\\d{1,5})';

const playerRow = new RegExp(
  `^(\\d{1,9})\\s+${addressToken}\\s+(-?\\d{1,9})\\s+(?:${guidToken}(?:\\((OK|\\?)\\))?|-)\\s+(.*?)( \\(Lobby\\))?$`,
  's',
);

/** The players in a `players` reply; header, footer and anything else not a player row are skipped. */
export function parsePlayers(reply: string): RconPlayer[] {
  const players: RconPlayer[] = [];
  for (const line of reply.split('\n')) {
    const m = playerRow.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (!m) continue;
    players.push({
      number: Number(m[1]),
      ip: unbracket(m[2]!),
      port: Number(m[3]),
      ping: Number(m[4]),
      guid: m[5]?.toLowerCase(),
      verified: m[6] === 'OK',
      name: m[7]!,
      lobby: m[8] !== undefined,
    });
  }
  return players;
}

const verified = new RegExp(`^Verified GUID \\(${guidToken}\\) of player #(\\d{1,9}) (.*)$`, 's');
const player = /^Player #(\d{1,9}) (.*)$/s;
const connected = new RegExp(`^(.*) \\(${addressToken}\\) connected$`, 's');
const guid = new RegExp(`^(.*) - (?:BE )?GUID: ${guidToken}(?: \\(unverified\\))?$`, 's');
// Greedy: the GUID is the last "(guid) has been kicked by BattlEye: " (a name may hold one; the
// reason is BattlEye's or an admin's, "Admin Kick (...)", ending in a parenthesis).
const kickedWithGuid = new RegExp(`^(.*) \\((?:${guidToken}|-)\\) has been kicked by BattlEye: (.*)$`, 's');
const kicked = /^(.*) has been kicked by BattlEye: (.*)$/s;

/** One server message, by kind. */
export function parseServerMessage(text: string): ServerMessage {
  const v = verified.exec(text);
  if (v) return { type: 'verified', number: Number(v[2]), name: v[3]!, guid: v[1]!.toLowerCase() };
  const p = player.exec(text);
  if (!p) return { type: 'other', text };
  const number = Number(p[1]);
  const rest = p[2]!;
  // Checked by their fixed endings first: a kick's reason never ends like these, a name may.
  if (rest.endsWith(' disconnected')) return { type: 'disconnected', number, name: rest.slice(0, -' disconnected'.length) };
  const c = connected.exec(rest);
  if (c) return { type: 'connected', number, name: c[1]!, ip: unbracket(c[2]!), port: Number(c[3]) };
  const g = guid.exec(rest);
  if (g) return { type: 'guid', number, name: g[1]!, guid: g[2]!.toLowerCase() };
  const kg = kickedWithGuid.exec(rest);
  if (kg) return { type: 'kicked', number, name: kg[1]!, guid: kg[2]?.toLowerCase(), reason: kg[3]! };
  const k = kicked.exec(rest);
  if (k) return { type: 'kicked', number, name: k[1]!, guid: undefined, reason: k[2]! };
  return { type: 'other', text };
}

const unbracket = (address: string): string => (address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address);
