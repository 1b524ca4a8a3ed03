import test from 'ava';
import fc from 'fast-check';
import { discordLimits, embedChars, embedOf, firstMessageSize, lengthText, retryAfterOf } from '../../src/webhooks/discord.ts';
import type { OutboundEvent } from '../../src/webhooks/events.ts';

// Discord messages (src/webhooks/discord.ts): whatever the events' texts (names, reasons, weapons
// of any length and content), every embed keeps Discord's limits, and the events packed into one
// message are at most 10 and 6000 characters, at least one, taken from the front in order.

const text = fc.string({ unit: 'grapheme', maxLength: 1500 });
const ref = fc.record({ platformId: fc.string({ minLength: 1, maxLength: 30 }), name: fc.option(text, { nil: null }) });
const iso = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }).map((ms) => new Date(ms).toISOString());

const event: fc.Arbitrary<OutboundEvent> = fc.oneof(
  fc.record({
    type: fc.constant('kill' as const),
    data: fc.record({
      serverId: fc.uuid(),
      serverName: text,
      killer: ref,
      victim: ref,
      weapon: text,
      distance: fc.double({ min: 0, max: 5000, noNaN: true }),
      hitZone: fc.option(text, { nil: null }),
      headshot: fc.boolean(),
    }),
  }),
  fc.record({
    type: fc.constantFrom('ban.created' as const, 'ban.lifted' as const),
    data: fc.record({
      ban: fc.record({
        id: fc.uuid(),
        platformId: fc.string({ minLength: 1, maxLength: 30 }),
        playerName: fc.option(text, { nil: null }),
        reason: fc.option(text, { nil: null }),
        source: fc.constant('manual'),
        bannedAt: iso,
        expiresAt: fc.option(iso, { nil: null }),
        createdBy: fc.record({ id: fc.constant(null), name: fc.option(text, { nil: null }) }),
        liftedAt: fc.option(iso, { nil: null }),
        liftedBy: fc.option(fc.record({ id: fc.constant(null), name: fc.option(text, { nil: null }) }), { nil: null }),
      }),
    }),
  }),
  fc.record({
    type: fc.constantFrom('server.online' as const, 'server.offline' as const),
    data: fc.record({ serverId: fc.uuid(), serverName: text }),
  }),
  fc.record({
    type: fc.constant('webhook.test' as const),
    data: fc.record({ endpointId: fc.uuid(), message: fc.string({ maxLength: 5000 }) }),
  }),
);

const records = { recordOf: () => ({ kills: 3, deaths: 1 }) };

test('every embed keeps Discord limits; a message is 1 to 10 embeds within 6000 characters', (t) => {
  fc.assert(
    fc.property(fc.array(fc.tuple(event, iso), { minLength: 1, maxLength: 14 }), (events) => {
      const embeds = events.map(([e, at]) => embedOf(e, at, records));
      for (const e of embeds) {
        t.true(e.title.length <= discordLimits.title);
        t.true((e.description ?? '').length <= discordLimits.description);
        t.true(e.fields.length <= discordLimits.fields);
        for (const f of e.fields)
          t.true(f.name.length <= discordLimits.fieldName && f.value.length <= discordLimits.fieldValue && f.value.length > 0);
        t.true((e.footer?.text.length ?? 0) <= discordLimits.footer);
      }
      const n = firstMessageSize(embeds);
      t.true(n >= 1 && n <= discordLimits.embedsPerMessage);
      t.true(embeds.slice(0, n).reduce((sum, e) => sum + embedChars(e), 0) <= discordLimits.messageChars);
      // Packed as full as allowed: the next embed would break a limit.
      if (n < embeds.length)
        t.true(
          n === discordLimits.embedsPerMessage ||
            embeds.slice(0, n + 1).reduce((s, e) => s + embedChars(e), 0) > discordLimits.messageChars,
        );
    }),
    { numRuns: 300 },
  );
});

test('retry_after is read from a 429 body only when it is a number of seconds', (t) => {
  t.is(retryAfterOf('{"retry_after": 1.5, "global": false}'), 1.5);
  fc.assert(
    fc.property(fc.string(), (body) => {
      const seconds = retryAfterOf(body);
      t.true(seconds === undefined || (Number.isFinite(seconds) && seconds >= 0));
    }),
  );
  for (const body of ['', 'x', '{"retry_after": "2"}', '{"retry_after": -1}', 'null', '[1]']) t.is(retryAfterOf(body), undefined, body);
});

test('a ban length reads in its two largest units', (t) => {
  t.is(lengthText(60 * 60_000), '1 hour');
  t.is(lengthText((7 * 24 * 60 + 90) * 60_000), '7 days 1 hour');
  t.is(lengthText(30_000), '1 minute');
  t.is(lengthText(10_000), 'under a minute');
});
