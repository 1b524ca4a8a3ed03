// The admin-log line parser against hostile names: a player picks a name holding the tokens the
// game writes around names (`" (id=`, `pos=<`, `) with `, `killed by Player "`, ...). Ids,
// positions, weapons, distances and zones must come from the game's tokens only; a line that does
// not read one way only is refused as unparsed, never attributed to someone else.
import test from 'ava';
import fc from 'fast-check';
import { parseAdmLine } from '../../src/agent/adm-line.ts';
import type { AdmEntry, AdmLine, AdmPlayer } from '../../src/agent/adm-line.ts';

const A = 'xGgY7s6HofTbM_wJTH2dl1CHjI2ly9FhhZuBkrUxKjc=';
const B = 'MoCa80ieZv3sWBmmySW716fIWvHqy9QaJgdgC1FU7go=';
/** Someone else: the id a hostile name tries to pin its deeds on. */
const C = 'SrhZj5stAJhDfPqLCWAMgshKCb9iiNSXsN1ptkjA-r8=';
const steam = '76561198000000001';
const xbox = 'D0B9EDC7A5238AB0A559C250E9849B23D2629915';

const at = (text: string) => `12:00:00 | ${text}`;
const entryOf = (line: AdmLine): AdmEntry | undefined => (line.kind === 'timed' ? line.entry : undefined);
const parse = (text: string) => entryOf(parseAdmLine(at(text)));
const p = (name: string, id: string | null, pos: [number, number, number] | null): AdmPlayer => ({ name, id, pos });

test('a kill: a killer named like a group and a weapon gets neither the other id nor his own id into the weapon', (t) => {
  const name = `X" (id=${C} pos=<1, 2, 3>) with M4`;
  t.deepEqual(
    parse(
      `Player "Alice" (DEAD) (id=${A} pos=<10, 20, 30>) killed by Player "${name}" (id=${B} pos=<40, 50, 60>) with Mosin9130 from 50.5 meters `,
    ),
    {
      type: 'killedByPlayer',
      victim: p('Alice', A, [10, 20, 30]),
      killer: p(name, B, [40, 50, 60]),
      weapon: 'Mosin9130',
      distance: 50.5,
    },
  );
});

test('a kill: names holding distances, zones, HP and connect tokens change nothing', (t) => {
  const victim = `V" (id=${C} pos=<1, 2, 3>) with M4 from 1 meters [HP: 0] is connected`;
  const killer = `K from 100 meters into Head(0) for 100 damage (Bullet_556x45) has been disconnected`;
  t.deepEqual(
    parse(`Player "${victim}" (DEAD) (id=${A} pos=<0, 0, 0>) killed by Player "${killer}" (id=${steam} pos=<3, 4, 0>) with (MeleeFist)`),
    {
      type: 'killedByPlayer',
      victim: p(victim, A, [0, 0, 0]),
      killer: p(killer, steam, [3, 4, 0]),
      weapon: '(MeleeFist)',
      distance: null,
    },
  );
});

test('a kill whose victim name imitates a victim and `killed by Player "` is refused: either player could be the victim', (t) => {
  const victim = `V" (DEAD) (id=${C} pos=<1, 2, 3>) killed by Player "Y`;
  const line = parseAdmLine(
    at(`Player "${victim}" (DEAD) (id=${A} pos=<0, 0, 0>) killed by Player "Bob" (id=${B} pos=<3, 4, 0>) with M4-A1 from 5 meters `),
  );
  t.like(line, { kind: 'unparsed', reason: 'a kill whose two names read more than one way' });
  const killer = `K" (DEAD) (id=${C} pos=<1, 2, 3>) killed by Player "Y`;
  t.is(
    parseAdmLine(at(`Player "Alice" (DEAD) (id=${A} pos=<0, 0, 0>) killed by Player "${killer}" (id=${B} pos=<3, 4, 0>) with M4-A1`)).kind,
    'unparsed',
  );
});

test("a hit by a player: the attacker and the zone are the game's, whatever either name holds", (t) => {
  const victim = `V" (id=${C} pos=<0, 0, 0>)[HP: 100] hit by FallDamageHealth`;
  const attacker = `K" (id=${C} pos=<1, 2, 3>) into Torso(19) for 1 damage (MeleeFist)`;
  t.deepEqual(
    parse(
      `Player "${victim}" (id=${A} pos=<1, 1, 1>)[HP: 50] hit by Player "${attacker}" (id=${B} pos=<2, 2, 2>) into Head(0) for 50 damage (Bullet_556x45) with M4-A1 from 20 meters `,
    ),
    {
      type: 'hit',
      victim: p(victim, A, [1, 1, 1]),
      kind: 'player',
      attacker: p(attacker, B, [2, 2, 2]),
      zone: 'Head',
    },
  );
  const imitating = `V" (id=${C} pos=<0, 0, 0>)[HP: 1] hit by Player "Z`;
  t.like(
    parseAdmLine(
      at(
        `Player "${imitating}" (id=${A} pos=<1, 1, 1>)[HP: 50] hit by Player "Bob" (id=${B} pos=<2, 2, 2>) into Head(0) for 9 damage (MeleeFist)`,
      ),
    ),
    {
      kind: 'unparsed',
      reason: 'a hit whose two names read more than one way',
    },
  );
});

test('a hit by an infected: a victim named like a player hit is still the one hit, by the infected', (t) => {
  const victim = `V" (id=${C} pos=<1, 2, 3>)[HP: 5] hit by Player "K" (id=${B} pos=<1, 2, 3>) into Head(0) for 99 damage (Bullet_308Win)`;
  t.deepEqual(
    parse(
      `Player "${victim}" (id=${A} pos=<3705.3, 8966.4, 311>)[HP: 93.0506] hit by Зараженный into RightLeg(3) for 6.8 damage (MeleePoliceInfectedLong)`,
    ),
    {
      type: 'hit',
      victim: p(victim, A, [3705.3, 8966.4, 311]),
      kind: 'infected',
      attacker: null,
      zone: 'RightLeg',
    },
  );
});

test('connects (PC and console), disconnects and PlayerList lines: the id is the one after the name', (t) => {
  const name = `X" (id=${C} pos=<1, 2, 3>) is connected`;
  t.deepEqual(parse(`Player "${name}" is connected (id=${A})`), { type: 'connect', player: p(name, A, null) });
  const pcLike = `X" is connected (id=${C})`;
  t.deepEqual(parse(`Player "${pcLike}" is connected (id=${A})`), { type: 'connect', player: p(pcLike, A, null) });
  const consoleName = `X" (id=${C} pos=<1, 2, 3>) is connecting`;
  t.deepEqual(parse(`Player "${consoleName}" (id=${xbox} pos=<4, 5, 6>) is connected`), {
    type: 'connect',
    player: p(consoleName, xbox, [4, 5, 6]),
  });
  const gone = `X"(id=${C}) has been disconnected`;
  t.deepEqual(parse(`Player "${gone}"(id=${A}) has been disconnected`), { type: 'disconnect', player: p(gone, A, null) });
  const listed = `X" (id=${C} pos=<1, 2, 3>)`;
  t.deepEqual(parse(`Player "${listed}" (id=${A} pos=<4, 5, 6>)`), { type: 'playerLine', player: p(listed, A, [4, 5, 6]) });
});

test("deaths of one player: the victim and what killed them are the game's", (t) => {
  const died = `X" (id=${C} pos=<1, 2, 3>) died. Stats> Water: 0 Energy: 0 Bleed sources: 0`;
  t.deepEqual(parse(`Player "${died}" (DEAD) (id=${A} pos=<4, 5, 6>) died. Stats> Water: 500 Energy: 400 Bleed sources: 3`), {
    type: 'died',
    victim: p(died, A, [4, 5, 6]),
    water: 500,
    energy: 400,
    bleedSources: 3,
  });
  const byClass = `X" (id=${C} pos=<1, 2, 3>) killed by ZmbM_PatrolNormal_Autumn`;
  t.deepEqual(parse(`Player "${byClass}" (DEAD) (id=${A} pos=<4, 5, 6>) killed by Sedan_02_Red`), {
    type: 'killedBy',
    victim: p(byClass, A, [4, 5, 6]),
    source: 'Sedan_02_Red',
  });
  const explosive = `X" (id=${C} pos=<1, 2, 3>) killed by  with M67 Grenade`;
  t.deepEqual(parse(`Player "${explosive}" (DEAD) (id=${A} pos=<4, 5, 6>) killed by  with RGD-5 Grenade`), {
    type: 'killedByUnknownWith',
    victim: p(explosive, A, [4, 5, 6]),
    weapon: 'RGD-5 Grenade',
  });
  const bled = `X" (id=${C} pos=<1, 2, 3>) bled out`;
  t.deepEqual(parse(`Player "${bled}" (DEAD) (id=${A} pos=<4, 5, 6>) bled out`), { type: 'bledOut', victim: p(bled, A, [4, 5, 6]) });
  const quoted = `X' (id=${C}) committed suicide.`;
  t.deepEqual(parse(`Player '${quoted}' (id=${A}) committed suicide.`), { type: 'suicide', victim: p(quoted, A, null) });
});

test('the odd real forms still read: `killed by  with`, (MeleeFist), id=Unknown, a blocked hit with two spaces', (t) => {
  t.like(parse(`Player "A" (DEAD) (id=${A} pos=<1, 2, 3>) killed by  with M67 Grenade`), {
    type: 'killedByUnknownWith',
    weapon: 'M67 Grenade',
  });
  t.like(
    parse(`Player "A" (DEAD) (id=${A} pos=<1, 2, 3>) killed by Player "Unknown/Dead Entity" (id=Unknown pos=<1, 2, 3>) with (MeleeFist)`),
    {
      type: 'killedByPlayer',
      killer: p('Unknown/Dead Entity', null, [1, 2, 3]),
      weapon: '(MeleeFist)',
    },
  );
  t.like(
    parse(`Player "A" (id=${A} pos=<1, 2, 3>)[HP: 100] hit by Player "B" (id=${B} pos=<1, 2, 3>) into Block(0) for 0 damage  with Топорик`),
    { type: 'hit', kind: 'player', zone: 'Block' },
  );
});

// Names drawn from what the game writes around names, and then some.
const fragments = [
  '"',
  "'",
  '(',
  ')',
  '<',
  '>',
  '=',
  ' ',
  'pos=',
  'id=',
  '0',
  '7',
  '1, 2, 3',
  'Ёжик',
  '🙂',
  '\t',
  '\r',
  ']',
  '[',
  '" (id=',
  '"(id=',
  '" (DEAD) (id=',
  ' pos=<',
  '>)',
  ') with ',
  ' with ',
  ' from 100 meters ',
  ' meters',
  ' into Head(',
  '0) for 100 damage (Bullet_556x45)',
  '[HP: ',
  '[HP: 5] hit by ',
  '[HP: 5] hit by Player "',
  ' killed by Player "',
  ' killed by ',
  ' killed by  with ',
  ' is connected',
  ' is connected (id=',
  ' is connecting',
  'has been disconnected',
  ' died. Stats> Water: 0 Energy: 0 Bleed sources: 0',
  ' bled out',
  ' committed suicide.',
  'Player "',
  C,
  steam,
  xbox,
  'Unknown',
  `" (id=${C} pos=<1, 2, 3>)`,
  `" (DEAD) (id=${C} pos=<7, 8, 9>) killed by Player "`,
  `"(id=${C}) has been disconnected`,
  `" (id=${C} pos=<1, 2, 3>)[HP: 1] hit by Player "`,
  `" (id=${C} pos=<1, 2, 3>) with M4 from 9 meters `,
  `' (id=${C}) committed suicide.`,
];
const hostileName = fc
  .array(fc.oneof(fc.constantFrom(...fragments), fc.string({ unit: 'grapheme', maxLength: 3 })), { maxLength: 8 })
  .map((parts) => parts.join(''));
const anId = fc.constantFrom(A, B, steam, xbox, 'Unknown');
const coordinate = fc
  .tuple(fc.integer({ min: -100, max: 15_360 }), fc.integer({ min: 0, max: 9 }))
  .map(([n, d]) => (d === 0 ? `${n}` : `${n}.${d}`));
const aPos = fc.tuple(coordinate, coordinate, coordinate);
const weapon = fc.constantFrom('M4-A1', 'Mosin9130', 'Топорик', '(MeleeFist)', 'Бейсбольная бита', 'CR-75', 'SVD');
const distance = fc.option(fc.tuple(fc.nat(1500), fc.nat(999)).map(([m, mm]) => `${m}.${mm}`));
const zone = fc.constantFrom('Head', 'Torso', 'LeftArm', 'RightLeg', 'RightFoot', 'Brain');

interface Built {
  line: string;
  expected: AdmEntry;
  /** Two players: a name may imitate the other player's part, and the line may then be refused. */
  twoNames: [string, string] | null;
}

const playerOf = (name: string, id: string, pos: string[] | null): AdmPlayer => ({
  name,
  id: id === 'Unknown' ? null : id,
  pos: pos && (pos.map(Number) as [number, number, number]),
});
const groupText = (id: string, pos: string[], dead: boolean) => `${dead ? ' (DEAD)' : ''} (id=${id} pos=<${pos.join(', ')}>)`;

const builtLine: fc.Arbitrary<Built> = fc.oneof(
  fc
    .record({ v: hostileName, vid: anId, vpos: aPos, k: hostileName, kid: anId, kpos: aPos, weapon, distance })
    .map(({ v, vid, vpos, k, kid, kpos, weapon: w, distance: d }): Built => ({
      line: `Player "${v}"${groupText(vid, vpos, true)} killed by Player "${k}"${groupText(kid, kpos, false)} with ${w}${d === null ? '' : ` from ${d} meters `}`,
      expected: {
        type: 'killedByPlayer',
        victim: playerOf(v, vid, vpos),
        killer: playerOf(k, kid, kpos),
        weapon: w,
        distance: d === null ? null : Number(d),
      },
      twoNames: [v, k],
    })),
  fc
    .record({ v: hostileName, vid: anId, vpos: aPos, k: hostileName, kid: anId, kpos: aPos, zone, weapon: fc.option(weapon), distance })
    .map(({ v, vid, vpos, k, kid, kpos, zone: z, weapon: w, distance: d }): Built => ({
      line: `Player "${v}"${groupText(vid, vpos, false)}[HP: 42.5] hit by Player "${k}"${groupText(kid, kpos, false)} into ${z}(0) for 9.75 damage (Bullet_762x39)${w === null ? '' : ` with ${w}${d === null ? '' : ` from ${d} meters `}`}`,
      expected: { type: 'hit', victim: playerOf(v, vid, vpos), kind: 'player', attacker: playerOf(k, kid, kpos), zone: z },
      twoNames: [v, k],
    })),
  fc.record({ v: hostileName, vid: anId, vpos: aPos, zone }).map(({ v, vid, vpos, zone: z }): Built => ({
    line: `Player "${v}"${groupText(vid, vpos, false)}[HP: 93.0506] hit by Зараженный into ${z}(3) for 6.8 damage (MeleePoliceInfectedLong)`,
    expected: { type: 'hit', victim: playerOf(v, vid, vpos), kind: 'infected', attacker: null, zone: z },
    twoNames: null,
  })),
  fc.record({ v: hostileName, vid: anId }).map(({ v, vid }): Built => ({
    line: `Player "${v}" is connected (id=${vid})`,
    expected: { type: 'connect', player: playerOf(v, vid, null) },
    twoNames: null,
  })),
  fc
    .record({ v: hostileName, vid: anId, vpos: aPos, how: fc.constantFrom('connected', 'connecting') })
    .map(({ v, vid, vpos, how }): Built => ({
      line: `Player "${v}"${groupText(vid, vpos, false)} is ${how}`,
      expected: { type: 'connect', player: playerOf(v, vid, vpos) },
      twoNames: null,
    })),
  fc.record({ v: hostileName, vid: anId }).map(({ v, vid }): Built => ({
    line: `Player "${v}"(id=${vid}) has been disconnected`,
    expected: { type: 'disconnect', player: playerOf(v, vid, null) },
    twoNames: null,
  })),
  fc.record({ v: hostileName, vid: anId, vpos: aPos }).map(({ v, vid, vpos }): Built => ({
    line: `Player "${v}"${groupText(vid, vpos, false)}`,
    expected: { type: 'playerLine', player: playerOf(v, vid, vpos) },
    twoNames: null,
  })),
  fc
    .record({
      v: hostileName,
      vid: anId,
      vpos: aPos,
      source: fc.constantFrom('Sedan_02_Red', 'ZmbM_PatrolNormal_Autumn', 'Animal_CanisLupus_Grey'),
    })
    .map(({ v, vid, vpos, source }): Built => ({
      line: `Player "${v}"${groupText(vid, vpos, true)} killed by ${source}`,
      expected: { type: 'killedBy', victim: playerOf(v, vid, vpos), source },
      twoNames: null,
    })),
  fc.record({ v: hostileName, vid: anId, vpos: aPos }).map(({ v, vid, vpos }): Built => ({
    line: `Player "${v}"${groupText(vid, vpos, true)} died. Stats> Water: 86.2893 Energy: 194.624 Bleed sources: 6`,
    expected: { type: 'died', victim: playerOf(v, vid, vpos), water: 86.2893, energy: 194.624, bleedSources: 6 },
    twoNames: null,
  })),
  fc.record({ v: hostileName, vid: anId }).map(({ v, vid }): Built => ({
    line: `Player '${v}' (id=${vid}) committed suicide.`,
    expected: { type: 'suicide', victim: playerOf(v, vid, null) },
    twoNames: null,
  })),
);

test('property: a line built with known ids, weapon, distance and zone reads as exactly those, or (two names) is refused', (t) => {
  let refused = 0;
  fc.assert(
    fc.property(builtLine, ({ line, expected, twoNames }) => {
      const parsed = parseAdmLine(at(line));
      if (parsed.kind === 'unparsed') {
        // Only a name holding an id group can imitate the other player's part.
        if (twoNames === null || !twoNames.some((name) => name.includes('(id='))) throw new Error(`refused (${parsed.reason}): ${line}`);
        refused += 1;
        return;
      }
      t.deepEqual(parsed, { kind: 'timed', seconds: 43_200, entry: expected }, line);
    }),
    { numRuns: 5000 },
  );
  t.log(`${refused} of 5000 two-player lines refused as ambiguous`);
});

test('property: parseAdmLine never throws, whatever the string', (t) => {
  const pieces = fc.constantFrom(...fragments, '12:00:00 | ', 'Player "', "Player '", ' (id=', ' pos=<', '>)', ' killed by Player "');
  const line = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.array(fc.oneof(pieces, fc.string({ maxLength: 4 })), { maxLength: 30 }).map((parts) => `12:00:00 | ${parts.join('')}`),
    fc.array(fc.oneof(pieces, fc.string({ maxLength: 4 })), { maxLength: 30 }).map((parts) => `12:00:00 | Player "${parts.join('')}`),
  );
  fc.assert(
    fc.property(line, (text) => {
      const parsed = parseAdmLine(text);
      if (!['header', 'blank', 'timed', 'unparsed'].includes(parsed.kind)) throw new Error(`no such kind: ${JSON.stringify(parsed)}`);
    }),
    { numRuns: 5000 },
  );
  t.pass();
});

test('a 64 KiB line of hostile fragments reads in linear time', (t) => {
  const unit = `" (id=${C} pos=<1, 2, 3>) killed by Player "`;
  const lines = [
    `Player "${unit.repeat(Math.floor(65_536 / unit.length))}" (id=${B} pos=<1, 2, 3>) with M4 ${' '.repeat(2000)}x`,
    `Player "${'" (id='.repeat(10_000)}`,
    `Player "x" (id=${A} pos=<1, 2, 3>) with ${' from 1'.repeat(9000)}`,
    `Player "x" (id=${A} pos=<1, 2, 3>)[HP: ${'1'.repeat(60_000)}`,
    `Player "${'[HP: 1] hit by Player "'.repeat(2500)}" (id=${B} pos=<1, 2, 3>) into Head(0) for 1 damage`,
    `Player "${' '.repeat(60_000)}x" is connected (id=${A}${' '.repeat(4000)}`,
  ];
  const started = performance.now();
  for (const line of lines) parseAdmLine(at(line));
  t.true(performance.now() - started < 500, `${performance.now() - started} ms`);
});
