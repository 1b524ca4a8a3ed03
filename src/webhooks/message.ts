// What one request to an endpoint carries: for a standard endpoint one event, `{ type, timestamp,
// data }` signed per Standard Webhooks; for a Discord endpoint the first events waiting that fit
// one message (up to 10 embeds), mentioning the endpoint's role when one of them is a watched
// player joining. Pure.
import type { Endpoint } from './endpoint.repo.ts';
import type { OutboundEvent } from './events.ts';
import type { QueuedEvent } from './outbox.repo.ts';
import { discordMessage, embedOf, firstMessageSize } from './discord.ts';
import type { EmbedContext } from './discord.ts';
import { signingSecrets, standardHeaders } from './signing.ts';

export interface OutboundMessage {
  /** The events it carries, from the head of the queue. */
  events: QueuedEvent[];
  body: string;
  headers: Record<string, string>;
}

const outbound = (e: QueuedEvent) => ({ type: e.type, data: e.data }) as OutboundEvent;

export function standardMessage(endpoint: Endpoint, event: QueuedEvent, secretKey: Buffer, nowMs: number): OutboundMessage {
  const body = JSON.stringify({ type: event.type, timestamp: event.occurredAt, data: event.data });
  return { events: [event], body, headers: standardHeaders(signingSecrets(secretKey, endpoint, nowMs), event.eventId, nowMs, body) };
}

export function discordMessageOf(events: QueuedEvent[], context: EmbedContext, mentionRoleId: string | null = null): OutboundMessage {
  const embeds = events.map((e) => embedOf(outbound(e), e.occurredAt, context));
  const n = firstMessageSize(embeds);
  const sent = events.slice(0, n);
  const mention = mentionRoleId !== null && sent.some((e) => e.type === 'player.watched.joined') ? mentionRoleId : undefined;
  return { events: sent, body: JSON.stringify(discordMessage(embeds.slice(0, n), mention)), headers: {} };
}
