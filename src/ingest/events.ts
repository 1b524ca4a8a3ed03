// Checks a batch of game-server events one by one and normalises the good ones. Only the fields
// the service keeps are copied, so coordinates (x, y, z) and any other extra field never go further.
import type { IngestEvent as IngestEventBody, IngestResult } from '../http/schema-types.ts';
import { validatorFor, describeErrors } from '../http/schemas.ts';
import { badRequest } from '../http/errors.ts';
import { normaliseJsonText } from '../http/text.ts';
import { isSteam64 } from '../identities/id-forms.ts';

export const eventTypes = [
  'server.status',
  'server.started',
  'player.connect',
  'player.disconnect',
  'player.heartbeat',
  'kill',
  'shots',
  'death',
] as const;
export type EventType = (typeof eventTypes)[number];

/** What ended a life with no player killer; the list is closed. */
export const deathCauses = ['infected', 'animal', 'vehicle', 'fall', 'explosion', 'suicide', 'bleeding', 'environment', 'other'] as const;
export type DeathCause = (typeof deathCauses)[number];

/** A timestamp further ahead than this is a clock error on the game host: arrival time is used. */
export const maxFutureSkewMs = 60_000;
/** Events before this are refused: no game server reports from before 2000. */
export const earliestEventMs = Date.UTC(2000, 0, 1);

// A type, not an interface: it fits the wire event's killer and victim, which admit further fields.
export type Player = {
  platformId: string;
  name: string;
};

interface Base {
  index: number;
  id: string;
  /** When it happened, by the service's clock: a ts too far ahead is the arrival time. */
  tsMs: number;
  /** Its ts as sent: with the id, what a retry sends again (it keys the event's claim). */
  sentMs: number;
}

export type IngestEvent =
  | (Base & {
      type: 'server.status';
      online: boolean;
      map?: string;
      gameVersion?: string;
      players?: number;
      fps?: number;
      uptimeSeconds?: number;
    })
  | (Base & { type: 'server.started' })
  | (Base & { type: 'player.connect' | 'player.disconnect' | 'player.heartbeat'; player: Player })
  | (Base & { type: 'kill'; killer: Player; victim: Player; weapon: string; distance: number; isHeadshot: boolean; hitZone: string | null })
  | (Base & { type: 'shots'; platformId: string; fired: number; hits: number })
  | (Base & { type: 'death'; player: Player; cause: DeathCause });

/** An event as a game server (or the agent, src/agent/) sends it: schemas/ingest-event.json. */
export type WireEvent = IngestEventBody;

/** The most events one batch may carry (schemas/ingest-batch.json). */
export const maxBatchEvents = 1000;

export type Rejection = IngestResult['rejected'][number];

export interface ParsedBatch {
  events: IngestEvent[];
  rejected: Rejection[];
}

const validateBatch = validatorFor('ingest-batch.json');
const validateEvent = validatorFor('ingest-event.json');
const knownTypes = new Set<string>(eventTypes);

type Raw = Record<string, unknown>;

/** Throws a 400 when the batch itself is malformed; bad events are rejected one by one. */
export function parseBatch(body: unknown, arrivalMs: number): ParsedBatch {
  if (!validateBatch(body)) throw badRequest(`batch ${describeErrors(validateBatch.errors)}`);
  const items = (body as { events: Raw[] }).events;
  const events: IngestEvent[] = [];
  const rejected: Rejection[] = [];
  items.forEach((raw, index) => {
    const error = eventError(raw, arrivalMs);
    if (error) rejected.push({ index, error });
    else events.push(normalise(raw, index, arrivalMs));
  });
  return { events, rejected };
}

function eventError(raw: Raw, arrivalMs: number): string | undefined {
  const textProblem = normaliseJsonText(raw);
  if (textProblem) return textProblem;
  if (typeof raw.type === 'string' && !knownTypes.has(raw.type)) return `unknown event type "${raw.type.slice(0, 40)}"`;
  if (!validateEvent(raw)) return describeErrors(validateEvent.errors).replace(/^value /, 'event ');
  const ms = eventTimeMs(sentTimeMs(raw.ts as string | number), arrivalMs);
  if (Number.isNaN(ms)) return 'ts is not a valid date-time';
  if (ms < earliestEventMs) return 'ts is before 2000-01-01';
  if (raw.type === 'shots' && (raw.hits as number) > (raw.fired as number)) return 'hits must not exceed fired';
  const badId = platformIdsOf(raw).find((id) => /^[0-9]{17}$/.test(id) && !isSteam64(id));
  if (badId !== undefined) return `platformId ${badId} is outside the range of individual Steam accounts`;
  return undefined;
}

/** The schema's pattern admits 17 digits of the Steam64 prefix; the exact account range is checked here. */
function platformIdsOf(raw: Raw): string[] {
  if (raw.type === 'kill') return [(raw.killer as Player).platformId, (raw.victim as Player).platformId];
  return typeof raw.platformId === 'string' ? [raw.platformId] : [];
}

/** The last time a claim can hold: PostgreSQL reads no ISO text past the year 9999. */
export const latestSentMs = Date.parse('9999-12-31T23:59:59.999Z');

const sentTimeMs = (ts: string | number): number => Math.min(typeof ts === 'number' ? ts : Date.parse(ts), latestSentMs);

const eventTimeMs = (sentMs: number, arrivalMs: number): number => (sentMs > arrivalMs + maxFutureSkewMs ? arrivalMs : sentMs);

const player = (raw: unknown): Player => {
  const p = raw as Player;
  return { platformId: p.platformId, name: p.name };
};

function normalise(raw: Raw, index: number, arrivalMs: number): IngestEvent {
  // The uuid format also admits the URN form (urn:uuid:<id>); it is the same id, and PostgreSQL reads only the plain form.
  const id = (raw.id as string).toLowerCase().replace(/^urn:uuid:/, '');
  const sentMs = sentTimeMs(raw.ts as string | number);
  const tsMs = eventTimeMs(sentMs, arrivalMs);
  // Each event is built as one literal: spreading a shared base into it costs V8 about 6 us an
  // object (its slow path), most of the time of parsing a 500-event batch before this was noticed.
  const type = raw.type as EventType;
  switch (type) {
    case 'server.status':
      return {
        index,
        id,
        tsMs,
        sentMs,
        type,
        online: raw.online as boolean,
        map: raw.map as string | undefined,
        gameVersion: raw.gameVersion as string | undefined,
        players: raw.players as number | undefined,
        fps: raw.fps as number | undefined,
        uptimeSeconds: raw.uptimeSeconds as number | undefined,
      };
    case 'server.started':
      return { index, id, tsMs, sentMs, type };
    case 'player.connect':
    case 'player.disconnect':
    case 'player.heartbeat':
      return { index, id, tsMs, sentMs, type, player: player(raw) };
    case 'death':
      return { index, id, tsMs, sentMs, type, player: player(raw), cause: raw.cause as DeathCause };
    case 'kill':
      return {
        index,
        id,
        tsMs,
        sentMs,
        type,
        killer: player(raw.killer),
        victim: player(raw.victim),
        weapon: raw.weapon as string,
        distance: raw.distance as number,
        isHeadshot: raw.isHeadshot as boolean,
        hitZone: (raw.hitZone as string | undefined) ?? null,
      };
    case 'shots':
      return { index, id, tsMs, sentMs, type, platformId: raw.platformId as string, fired: raw.fired as number, hits: raw.hits as number };
  }
}
