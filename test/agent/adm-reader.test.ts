import { readFileSync } from 'node:fs';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { AdmReader } from '../../src/agent/adm-reader.ts';
import { parseAdmLine } from '../../src/agent/adm-line.ts';
import { eventId, uuidV5 } from '../../src/agent/event-id.ts';
import type { WireEvent } from '../../src/ingest/events.ts';
import { describeErrors, validatorFor } from '../../src/http/schemas.ts';

const serverId = '5f0c6a2e-1d4b-4c8e-a3f7-2b9d8e6c1a01';
const sample = readFileSync(new URL('./fixtures/adm-sample.ADM', import.meta.url), 'utf8');
const validEvent = validatorFor('ingest-event.json');

/** Reads lines as the agent does (offsets in bytes) and checks every event against the ingest schema. */
function readAll(t: ExecutionContext, text: string, utcOffsetMinutes: number | null = 0, fileName = 'test.ADM') {
  const unparsed: string[] = [];
  const reader = new AdmReader({ serverId, fileName, utcOffsetMinutes, onUnparsed: (_o, reason) => unparsed.push(reason) });
  const events: WireEvent[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    events.push(...reader.read(line, offset));
    offset += Buffer.byteLength(line) + 1;
  }
  for (const e of events) t.true(validEvent(e), `${describeErrors(validEvent.errors)}: ${JSON.stringify(e)}`);
  return { events, counts: reader.counts, unparsed };
}

const header = (date = '2023-08-30', time = '11:49:44') =>
  `\n\n******************************************************************************\nAdminLog started on ${date} at ${time}`;
const A = 'xGgY7s6HofTbM_wJTH2dl1CHjI2ly9FhhZuBkrUxKjc=';
const B = 'MoCa80ieZv3sWBmmySW716fIWvHqy9QaJgdgC1FU7go=';
const pa = (pos = '1000, 2000, 100') => `Player "Alice" (id=${A} pos=<${pos}>)`;
const pb = (pos = '1003, 2004, 100') => `Player "Bob" (id=${B} pos=<${pos}>)`;
const strip = (events: WireEvent[]) => events.map(({ id: _id, ...rest }) => rest);
const iso = (ms: number | string) => new Date(ms).toISOString();

test('every line of the real sample: the events it gives, in order, none unparsed', (t) => {
  const { events, counts } = readAll(t, sample);
  t.is(counts.unparsed, 0);
  t.deepEqual(
    events.map((e) => [e.type, iso(e.ts), 'cause' in e ? e.cause : 'name' in e ? e.name : '']),
    [
      ['server.started', '2023-08-30T11:49:44.000Z', ''],
      ['player.connect', '2023-08-30T11:50:33.000Z', 'Yappietouch'],
      ['death', '2023-08-30T12:30:45.000Z', 'bleeding'],
      ['player.disconnect', '2023-08-30T12:31:39.000Z', 'Survivor'],
      ['death', '2023-08-30T14:28:14.000Z', 'vehicle'],
      ['death', '2023-08-30T20:04:08.000Z', 'suicide'],
      ['death', '2023-08-30T20:06:00.000Z', 'suicide'],
    ],
  );
  // The id=Unknown disconnect, hits, building, chat and unconsciousness give no event.
  t.is(counts.lines, sample.split('\n').length);
  t.is(counts.skipped, 14);
});

test('every line of the sample is understood by the line parser', (t) => {
  for (const line of sample.split('\n')) t.not(parseAdmLine(line).kind, 'unparsed', line);
});

test('event ids: UUID v5 of the server id, file name and byte offset (RFC 9562 vector too)', (t) => {
  t.is(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  const first = readAll(t, sample).events;
  const again = readAll(t, sample).events;
  t.deepEqual(
    first.map((e) => e.id),
    again.map((e) => e.id),
  );
  t.is(
    first[0]!.id,
    eventId(
      serverId,
      'test.ADM',
      Buffer.byteLength('\n\n******************************************************************************\n'),
    ),
  );
  t.not(readAll(t, sample, 0, 'other.ADM').events[0]!.id, first[0]!.id);
  t.is(new Set(first.map((e) => e.id)).size, first.length);
});

test("a ranged kill: weapon and the logged distance; the killer's last hit on the victim within 10 s names the zone", (t) => {
  const { events } = readAll(
    t,
    `${header()}
12:00:00 | ${pa()}[HP: 0] hit by ${pb()} into Head(0) for 100 damage (Bullet_556x45) with M4-A1 from 123.456 meters 
12:00:00 | Player "Alice" (DEAD) (id=${A} pos=<1000, 2000, 100>) killed by ${pb()} with M4-A1 from 123.456 meters `,
  );
  t.deepEqual(strip(events.slice(1)), [
    {
      type: 'kill',
      ts: Date.UTC(2023, 7, 30, 12),
      killer: { platformId: B, name: 'Bob' },
      victim: { platformId: A, name: 'Alice' },
      weapon: 'M4-A1',
      distance: 123.46,
      isHeadshot: true,
      hitZone: 'Head',
    },
  ]);
});

test('a hit more than 10 s before the kill, or by someone else, names no zone', (t) => {
  const { events } = readAll(
    t,
    `${header()}
12:00:00 | ${pa()}[HP: 50] hit by ${pb()} into Head(0) for 50 damage (Bullet_556x45) with M4-A1 from 20 meters 
12:00:11 | ${pa()} killed by ${pb()} with M4-A1 from 20 meters 
12:30:00 | ${pa()}[HP: 50] hit by Player "Carl" (id=${'C'.repeat(43)}= pos=<1, 1, 1>) into Head(0) for 50 damage (Bullet_556x45) with M4-A1 from 20 meters 
12:30:05 | ${pa()} killed by ${pb()} with M4-A1 from 20 meters `,
  );
  const kills = events.filter((e) => e.type === 'kill');
  t.is(kills.length, 2);
  for (const k of kills) t.like(k, { isHeadshot: false });
  t.false(kills.some((k) => 'hitZone' in k));
});

test('a melee kill: the distance between the two positions; a body hit is no headshot', (t) => {
  const { events } = readAll(
    t,
    `${header()}
12:00:00 | ${pa()}[HP: 10] hit by ${pb()} into Torso(19) for 9 damage (MeleeSharpLight_2) with Топорик
12:00:05 | Player "Alice" (DEAD) (id=${A} pos=<1000, 2000, 100>) killed by ${pb('1003, 2004, 100')} with Топорик`,
  );
  t.like(events[1], { type: 'kill', weapon: 'Топорик', distance: 5, isHeadshot: false, hitZone: 'Torso' });
});

test('a fist kill: the weapon in brackets is named without them', (t) => {
  const { events } = readAll(
    t,
    `${header()}
12:00:00 | Player "Alice" (DEAD) (id=${A} pos=<0, 0, 0>) killed by ${pb('3, 4, 0')} with (MeleeFist)`,
  );
  t.like(events[1], { type: 'kill', weapon: 'MeleeFist', distance: 5 });
});

test('other deaths with their cause; the double-space explosive kill; a death told twice counts once', (t) => {
  const { events } = readAll(
    t,
    `${header()}
10:00:00 | ${pa()} killed by ZmbM_PatrolNormal_Autumn
10:10:00 | ${pa()} killed by Animal_CanisLupus_Grey
10:20:00 | Player "Alice" (DEAD) (id=${A} pos=<1, 2, 3>) killed by  with M67 Grenade
10:30:00 | ${pa()}[HP: 0] hit by FallDamageHealth
10:30:01 | ${pa()} died. Stats> Water: 500 Energy: 500 Bleed sources: 0
10:40:00 | ${pa()} died. Stats> Water: 0 Energy: 300 Bleed sources: 0
10:50:00 | ${pa()} drowned.
10:50:02 | ${pa()} died. Stats> Water: 500 Energy: 500 Bleed sources: 0
11:00:00 | ${pa()} died. Stats> could not fetch
11:10:00 | ${pa()} committed suicide
11:10:04 | Player "Alice" (DEAD) (id=${A} pos=<1, 2, 3>) killed by ${pa()} with Mosin9130
11:20:00 | ${pb()} killed by ${pb()} with Mosin9130 from 0 meters `,
  );
  t.deepEqual(
    events.slice(1).map((e) => [e.type, 'cause' in e ? e.cause : '', 'platformId' in e ? e.platformId : '']),
    [
      ['death', 'infected', A],
      ['death', 'animal', A],
      ['death', 'explosion', A],
      ['death', 'fall', A],
      ['death', 'environment', A],
      ['death', 'environment', A],
      ['death', 'other', A],
      ['death', 'suicide', A],
      ['death', 'suicide', B],
    ],
  );
});

test('console connects (both forms), PC connects, disconnects, id=Unknown; localized names kept', (t) => {
  const xbox = 'D0B9EDC7A5238AB0A559C250E9849B23D2629915';
  const { events, counts } = readAll(
    t,
    `${header()}
12:00:00 | Player "Ёжик" (id=${xbox} pos=<1, 2, 3>) is connecting
12:00:10 | Player "Ёжик" (id=${xbox} pos=<1, 2, 3>) is connected
12:00:20 | Player "Зараженный" is connected (id=${A})
12:00:30 | Player "Survivor"(id=Unknown) has been disconnected
12:00:40 | Player "Ёжик"(id=${xbox}) has been disconnected`,
  );
  t.deepEqual(
    events.slice(1).map((e) => [e.type, 'name' in e ? e.name : '', 'platformId' in e ? e.platformId : '']),
    [
      ['player.connect', 'Ёжик', xbox],
      ['player.connect', 'Ёжик', xbox],
      ['player.connect', 'Зараженный', A],
      ['player.disconnect', 'Ёжик', xbox],
    ],
  );
  t.is(counts.skipped, 1);
  t.false(JSON.stringify(events).includes('pos'), 'positions are never sent');
});

test('a PlayerList block: a status with the count and a heartbeat per player; positions dropped', (t) => {
  const { events } = readAll(
    t,
    `${header()}
12:00:00 | ##### PlayerList log: 2 players
12:00:00 | ${pa('4512.3, 9811.7, 310.2')}
12:00:00 | ${pb()}
12:00:00 | #####
12:00:01 | ${pa()}`,
  );
  t.deepEqual(strip(events.slice(1)), [
    { type: 'server.status', ts: Date.UTC(2023, 7, 30, 12), online: true, players: 2 },
    { type: 'player.heartbeat', ts: Date.UTC(2023, 7, 30, 12), platformId: A, name: 'Alice' },
    { type: 'player.heartbeat', ts: Date.UTC(2023, 7, 30, 12), platformId: B, name: 'Bob' },
  ]);
  t.false(JSON.stringify(events).includes('4512'));
});

test('dates: headers (several in a file give server.started each), day rollover, the UTC offset', (t) => {
  const text = `${header('2023-12-31', '22:00:00')}
23:59:59 | Player "A" is connected (id=${A})
00:00:05 | Player "A" is connected (id=${A})
11:00:00 | Player "A" is connected (id=${A})
10:59:00 | Player "A" is connected (id=${A})
${header('2024-01-05', '06:00:00')}
06:00:01 | Player "A" is connected (id=${A})`;
  const utc = readAll(t, text).events;
  t.deepEqual(
    utc.map((e) => [e.type, iso(e.ts)]),
    [
      ['server.started', '2023-12-31T22:00:00.000Z'],
      ['player.connect', '2023-12-31T23:59:59.000Z'],
      ['player.connect', '2024-01-01T00:00:05.000Z'],
      ['player.connect', '2024-01-01T11:00:00.000Z'],
      ['player.connect', '2024-01-01T10:59:00.000Z'],
      ['server.started', '2024-01-05T06:00:00.000Z'],
      ['player.connect', '2024-01-05T06:00:01.000Z'],
    ],
  );
  const plusTwo = readAll(t, text, 120).events;
  t.is(iso(plusTwo[1]!.ts), '2023-12-31T21:59:59.000Z');
  const minusFiveThirty = readAll(t, text, -330).events;
  t.is(iso(minusFiveThirty[1]!.ts), '2024-01-01T05:29:59.000Z');
  const hostZone = readAll(t, text, null).events;
  t.is(hostZone[1]!.ts, new Date(2023, 11, 31, 23, 59, 59).getTime());
});

test('garbage, lines before any header, bad times and unknown player lines are counted, never fatal', (t) => {
  const { events, counts, unparsed } = readAll(
    t,
    `12:00:00 | Player "A" is connected (id=${A})
${header()}
garbage
25:61:00 | Player "A" is connected (id=${A})
12:00:00 | Player "broken
12:00:00 | Player "A" is connected (id=not-an-id)
12:00:00 | Something the agent does not know`,
  );
  t.is(events.length, 1);
  t.is(counts.unparsed, 4);
  t.is(unparsed.length, 4);
  t.is(counts.skipped, 2);
});

test('property: no line, however broken, makes the parser or the reader throw', (t) => {
  const reader = new AdmReader({ serverId, fileName: 'p.ADM', utcOffsetMinutes: 0 });
  reader.read('AdminLog started on 2023-08-30 at 11:49:44', 0);
  const pieces = fc.constantFrom(
    'Player "',
    '" (id=',
    A,
    ' pos=<',
    '1, 2, 3',
    '>)',
    '[HP: 5] hit by ',
    ' killed by ',
    ' with ',
    ' from ',
    ' meters ',
    ' into Head(0) for 5 damage (X)',
    '##### PlayerList log: ',
    ' players',
    '(DEAD) ',
    ' is connected',
    ' died. Stats> Water: ',
    ' committed suicide',
    "'",
    '"',
    '\r',
    ' ',
  );
  const line = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc
      .tuple(
        fc.constantFrom('12:00:00 | ', '23:59:59 | ', '00:00:00 | ', ''),
        fc.array(fc.oneof(pieces, fc.string({ maxLength: 5 })), { maxLength: 20 }),
      )
      .map(([p, parts]) => p + parts.join('')),
  );
  fc.assert(
    fc.property(line, fc.nat(1e9), (text, offset) => {
      parseAdmLine(text);
      for (const e of reader.read(text, offset))
        if (!validEvent(e)) throw new Error(`${describeErrors(validEvent.errors)}: ${JSON.stringify(e)}`);
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test('killed by a class name: vanilla vehicles, explosives and fire name their cause without a hit; otherwise the last hit decides', (t) => {
  const { events } = readAll(
    t,
    `${header()}
10:00:00 | ${pa()} killed by OffroadHatchback_Blue
10:10:00 | ${pa()} killed by LandMineTrap
10:20:00 | ${pa()} killed by Animal_UrsusArctos
10:30:00 | ${pa()} killed by BearTrap
10:40:00 | ${pa()}[HP: 3] hit by FireplaceIndoor with FireDamage
10:40:02 | ${pa()} died. Stats> Water: 500 Energy: 500 Bleed sources: 0
10:50:00 | ${pa()}[HP: 3] hit by BarbedWire with BarbedWireHit
10:50:01 | ${pa()} killed by BarbedWire`,
  );
  t.deepEqual(
    events.slice(1).map((e) => ('cause' in e ? e.cause : e.type)),
    ['vehicle', 'explosion', 'animal', 'other', 'environment', 'other'],
  );
});

test("a killer named like another player's group: the kill is his, and the public weapon holds no id", (t) => {
  const C = 'SrhZj5stAJhDfPqLCWAMgshKCb9iiNSXsN1ptkjA-r8=';
  const { events, counts } = readAll(
    t,
    `${header()}
12:00:00 | Player "Alice" (DEAD) (id=${A} pos=<1000, 2000, 100>) killed by Player "X" (id=${C} pos=<1, 2, 3>) with M4" (id=${B} pos=<1003, 2004, 100>) with Mosin9130 from 312.5 meters 
12:10:00 | Player "V" (DEAD) (id=${C} pos=<1, 2, 3>) killed by Player "Y" (DEAD) (id=${A} pos=<1, 2, 3>) killed by ${pb()} with M4-A1 from 5 meters `,
  );
  const kills = events.filter((e): e is Extract<WireEvent, { type: 'kill' }> => e.type === 'kill');
  t.is(kills.length, 1);
  t.like(kills[0], { killer: { platformId: B }, victim: { platformId: A, name: 'Alice' }, weapon: 'Mosin9130', distance: 312.5 });
  for (const id of [A, B, C]) t.false(kills[0]!.weapon.includes(id));
  // The second line reads two ways (either id could be the victim's): refused, counted, not guessed.
  t.is(counts.unparsed, 1);
});
