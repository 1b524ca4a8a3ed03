// The forms a player's id takes (docs/api.md, docs/trust-network.md): Steam64, the legacy STEAM_X:Y:Z text, the DayZ ID
// the game writes in its admin logs, the BattlEye GUID, console ids, chat-platform (Discord) ids and
// the network's own service UUID. Pure functions: recognising a form, and deriving the one-way
// hashes from a Steam64 (a Steam64 is only ever learnt, never computed back from them).
import * as crypto from 'node:crypto';
import { isUuid } from '../http/uuid.ts';

/** Individual Steam accounts lie in this range (universe 1, type 1, instance 1). */
export const steam64Min = 76561197960265728n;
export const steam64Max = 76561202255233023n;

const digits17 = /^[0-9]{17}$/;
const dayzIdPattern = /^[A-Za-z0-9_-]{43}=$/;
const battleyeGuidPattern = /^[0-9a-f]{32}$/;
const consoleIdPattern = /^[0-9A-F]{40}$/;
const legacyPattern = /^STEAM_([0-5]):([01]):([0-9]{1,10})$/i;
const snowflakePattern = /^[0-9]{17,20}$/;
/** Discord's epoch (2015-01-01T00:00:00Z): a snowflake's timestamp counts from it. */
const discordEpochMs = 1420070400000n;

export function isSteam64(id: string): boolean {
  // Texts of 17 digits compare as their numbers do: no BigInt for each of a batch's thousand ids.
  return digits17.test(id) && id >= steam64MinText && id <= steam64MaxText;
}
const steam64MinText = steam64Min.toString();
const steam64MaxText = steam64Max.toString();

/** The DayZ ID: base64url(SHA-256(Steam64 as decimal text)), `=` kept; 44 characters. */
export function dayzIdOf(steam64: string): string {
  return sha256Base64(steam64).replaceAll('+', '-').replaceAll('/', '_');
}

// Ingestion derives both forms for every player of every batch: the one-shot crypto.hash (Node
// 20.12+, Deno) costs a quarter of createHash; older Node 20 falls back to it.
const oneShot = crypto.hash as typeof crypto.hash | undefined;
const sha256Base64 = (text: string) =>
  oneShot ? oneShot('sha256', text, 'base64') : crypto.createHash('sha256').update(text).digest('base64');
const md5Hex = (bytes: Buffer) => (oneShot ? oneShot('md5', bytes, 'hex') : crypto.createHash('md5').update(bytes).digest('hex'));

/** The BattlEye GUID: hex MD5 of the bytes "BE" followed by the Steam64 as 8 little-endian bytes. */
export function battleyeGuidOf(steam64: string): string {
  const bytes = Buffer.alloc(10);
  bytes.write('BE', 0, 'latin1');
  bytes.writeBigUInt64LE(BigInt(steam64), 2);
  return md5Hex(bytes);
}

export const isDayzId = (id: string) => dayzIdPattern.test(id);
export const isBattleyeGuid = (id: string) => battleyeGuidPattern.test(id);
/** Console ids as the game logs them (Xbox: 40 upper-case hex characters). */
export const isConsoleId = (id: string) => consoleIdPattern.test(id);

/** STEAM_X:Y:Z -> Steam64 (= 76561197960265728 + 2Z + Y; X, the universe, is ignored); undefined if malformed. */
export function steam64FromLegacy(legacy: string): string | undefined {
  const match = legacyPattern.exec(legacy);
  if (!match) return undefined;
  const steam64 = steam64Min + 2n * BigInt(match[3]!) + BigInt(match[2]!);
  return steam64 <= steam64Max ? steam64.toString() : undefined;
}

/** Steam64 -> STEAM_0:Y:Z, the form old tools print. */
export function legacyOf(steam64: string): string {
  const offset = BigInt(steam64) - steam64Min;
  return `STEAM_0:${offset % 2n}:${offset / 2n}`;
}

/** A Discord snowflake: 17-20 digits, not a Steam64, its timestamp between 2015 and now. */
export function isChatSnowflake(id: string, nowMs: number): boolean {
  return !isSteam64(id) && isSnowflake(id, nowMs);
}

/**
 * 17-20 digits of a 64-bit number whose timestamp lies between 2015 and now. Without a `discord:`
 * prefix a number in the Steam64 range is a Steam64; with it, a chat id (snowflakes of mid-2015 lie
 * in that range).
 */
function isSnowflake(id: string, nowMs: number): boolean {
  if (!snowflakePattern.test(id)) return false;
  const n = BigInt(id);
  if (n >= 1n << 64n) return false;
  const ms = (n >> 22n) + discordEpochMs;
  return ms >= discordEpochMs && ms <= BigInt(nowMs);
}

/** The kinds of platform id the service stores for a player. */
export type PlatformIdKind = 'steam64' | 'dayzId' | 'console';

/** Which stored kind a platform id is, or undefined when it is none of them. */
export function platformIdKind(id: string): PlatformIdKind | undefined {
  if (isSteam64(id)) return 'steam64';
  if (isDayzId(id)) return 'dayzId';
  if (isConsoleId(id)) return 'console';
  return undefined;
}

export type IdentifierKind = PlatformIdKind | 'legacy' | 'serviceId' | 'chat' | 'battleyeGuid';

/**
 * Reads an identifier as a trust lookup takes it: a `discord:` prefix forces the chat kind; otherwise
 * the form decides. Undefined for anything malformed.
 */
export function classifyIdentifier(raw: string, nowMs: number): { kind: IdentifierKind; value: string } | undefined {
  if (raw.length > 100) return undefined;
  if (/^discord:/i.test(raw)) {
    const id = raw.slice('discord:'.length);
    return isSnowflake(id, nowMs) ? { kind: 'chat', value: id } : undefined;
  }
  const kind = platformIdKind(raw);
  if (kind) return { kind, value: raw };
  const legacy = steam64FromLegacy(raw);
  if (legacy) return { kind: 'legacy', value: legacy };
  if (isUuid(raw)) return { kind: 'serviceId', value: raw.toLowerCase() };
  if (isBattleyeGuid(raw.toLowerCase())) return { kind: 'battleyeGuid', value: raw.toLowerCase() };
  if (isChatSnowflake(raw, nowMs)) return { kind: 'chat', value: raw };
  return undefined;
}
