import test from 'ava';
import fc from 'fast-check';
import { discordLimits, embedChars, embedOf, firstMessageSize, lengthText } from '../../src/webhooks/discord.ts';
import { askedWaitMs, maxAskedWaitMs, retryAfterHeaderMs, retryAfterOf } from '../../src/webhooks/asked-wait.ts';
import type { OutboundEvent } from '../../src/webhooks/events.ts';

// Discord messages (src/webhooks/discord.ts): whatever the events' texts (names, reasons, weapons
// of any length and content), every embed keeps Discord's limits, and the events packed into one
// message are at most 10 and 6000 characters, at least one, taken from the front in order. The
// wait an answer asks (src/webhooks/asked-wait.ts) is read from its body or its Retry-After header
// and always within 0 and an hour.

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
      killerStreak: fc.nat({ max: 100_000 }),
    }),
  }),
  fc.record({
    type: fc.constant('player.watched.joined' as const),
    data: fc.record({
      serverId: fc.uuid(),
      serverName: text,
      player: ref,
      watchedAt: iso,
      watchedBy: fc.record({ id: fc.constant(null), name: fc.option(text, { nil: null }) }),
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

test('Retry-After is whole seconds or an HTTP date; a wait asked is the body first, bounded to an hour, never negative', (t) => {
  const now = Date.UTC(2026, 10, 28, 12, 0, 0);
  t.is(retryAfterHeaderMs('120', now), 120_000);
  t.is(retryAfterHeaderMs('Sat, 28 Nov 2026 12:00:30 GMT', now), 30_000);
  t.is(retryAfterHeaderMs('Sat, 28 Nov 2026 11:59:00 GMT', now), -60_000);
  for (const header of [undefined, '', '1.5', '-3', '+3', 'soon']) t.is(retryAfterHeaderMs(header, now), undefined, String(header));
  t.is(askedWaitMs({ body: '{"retry_after": 0.25}', retryAfter: '9' }, now), 250, "Discord's body to the millisecond");
  t.is(askedWaitMs({ body: 'busy', retryAfter: '9' }, now), 9000);
  t.is(askedWaitMs({ body: '', retryAfter: 'Sat, 28 Nov 2026 11:59:00 GMT' }, now), 0, 'a date passed: no wait');
  t.is(askedWaitMs({ body: '', retryAfter: String(7 * 86_400) }, now), maxAskedWaitMs, 'a week asked: an hour');
  t.is(askedWaitMs({ body: '{"retry_after": 1e9}' }, now), maxAskedWaitMs);
  t.is(askedWaitMs({ body: '' }, now), undefined);
  fc.assert(
    fc.property(fc.string(), fc.option(fc.string(), { nil: undefined }), (body, retryAfter) => {
      const ms = askedWaitMs({ body, ...(retryAfter === undefined ? {} : { retryAfter }) }, now);
      t.true(ms === undefined || (Number.isInteger(ms) && ms >= 0 && ms <= maxAskedWaitMs));
    }),
  );
});

test('a ban length reads in its two largest units', (t) => {
  t.is(lengthText(60 * 60_000), '1 hour');
  t.is(lengthText((7 * 24 * 60 + 90) * 60_000), '7 days 1 hour');
  t.is(lengthText(30_000), '1 minute');
  t.is(lengthText(10_000), 'under a minute');
});
