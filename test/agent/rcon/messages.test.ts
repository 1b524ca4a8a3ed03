// Reading BattlEye RCon texts: real lines (a DayZ 1.29 server's connect, BE GUID, chat, kick and
// disconnect, as captured in bzed's DayZ tooling tests; B3's BattlEye parser tests for the players
// list and "Verified GUID"; arcon's formats for "-" GUIDs), then properties: whatever a player calls
// themselves, the number, GUID and address read are the real ones.
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import { parsePlayers, parseServerMessage } from '../../../src/agent/rcon/messages.ts';
import type { RconPlayer, ServerMessage } from '../../../src/agent/rcon/messages.ts';

const guid = '907725ff524e1026154b5ac3cccb0258';

test('real server messages', (t) => {
  const cases: [string, ServerMessage][] = [
    [
      'Player #0 dzotester (10.125.0.3:41939) connected',
      { type: 'connected', number: 0, name: 'dzotester', ip: '10.125.0.3', port: 41939 },
    ],
    [`Player #0 dzotester - BE GUID: ${guid}`, { type: 'guid', number: 0, name: 'dzotester', guid }],
    [
      'Verified GUID (80A5885EBE2420BAB5E158A310FCBC7D) of player #12 Bravo 17',
      { type: 'verified', number: 12, name: 'Bravo 17', guid: '80a5885ebe2420bab5e158a310fcbc7d' },
    ],
    [
      'Player #8 Max - GUID: 73c5e50a7860475f0000000000000000 (unverified)',
      { type: 'guid', number: 8, name: 'Max', guid: '73c5e50a7860475f0000000000000000' },
    ],
    [
      `Player #0 dzotester (${guid}) has been kicked by BattlEye: Admin Kick (dzo test kick)`,
      { type: 'kicked', number: 0, name: 'dzotester', guid, reason: 'Admin Kick (dzo test kick)' },
    ],
    [
      'Player #1 Baz (be1a6a29ee0eb0851b586b2ed97ad110) has been kicked by BattlEye: Client not responding',
      { type: 'kicked', number: 1, name: 'Baz', guid: 'be1a6a29ee0eb0851b586b2ed97ad110', reason: 'Client not responding' },
    ],
    [
      'Player #4 New Guy (-) has been kicked by BattlEye: Admin Kick ()',
      { type: 'kicked', number: 4, name: 'New Guy', guid: undefined, reason: 'Admin Kick ()' },
    ],
    [
      'Player #2 Bob (the builder) has been kicked by BattlEye: Admin Kick ()',
      { type: 'kicked', number: 2, name: 'Bob (the builder)', guid: undefined, reason: 'Admin Kick ()' },
    ],
    ['Player #0 dzotester disconnected', { type: 'disconnected', number: 0, name: 'dzotester' }],
    [
      'Player #3 [2001:db8::7]:2304 fan ([2001:db8::7]:2304) connected',
      { type: 'connected', number: 3, name: '[2001:db8::7]:2304 fan', ip: '2001:db8::7', port: 2304 },
    ],
  ];
  for (const [text, expected] of cases) t.deepEqual(parseServerMessage(text), expected, text);
  for (const text of [
    '(Global) dzotester: dzo-be-test second: with a colon',
    '(Side) Player #3 x disconnected',
    'RCon admin #0 (127.0.0.1:39951) logged in',
    'RCon admin #1: (Global) Restart in 5 minutes',
    'Connected to BE Master',
    'Ban check timed out, no response from BE Master',
    'Player #x y connected',
    '',
  ])
    t.deepEqual(parseServerMessage(text), { type: 'other', text }, text);
});

test('a real players reply: unverified, lobby, "-" GUIDs and CRLF line ends', (t) => {
  const reply = [
    'Players on server:',
    '[#] [IP Address]:[Port] [Ping] [GUID] [Name]',
    '--------------------------------------------------',
    '8   111.222.200.50:2304   -1   73c5e50a7860475f0000000000000000(?)  Max (Lobby)',
    `0   10.20.30.40:2304    52   ${guid}(OK) Bushy (the one)`,
    '11  1.2.3.4:61001  0  -  Новичок',
    '(3 players in total)',
  ].join('\r\n');
  t.deepEqual(parsePlayers(reply), [
    {
      number: 8,
      ip: '111.222.200.50',
      port: 2304,
      ping: -1,
      guid: '73c5e50a7860475f0000000000000000',
      verified: false,
      name: 'Max',
      lobby: true,
    },
    { number: 0, ip: '10.20.30.40', port: 2304, ping: 52, guid, verified: true, name: 'Bushy (the one)', lobby: false },
    { number: 11, ip: '1.2.3.4', port: 61001, ping: 0, guid: undefined, verified: false, name: 'Новичок', lobby: false },
  ]);
  t.deepEqual(parsePlayers('Players on server:\n[#] [IP Address]:[Port] [Ping] [GUID] [Name]\n------\n(0 players in total)'), []);
});

/** Names built to confuse a parser: every fixed token of every message, unicode, quotes, digits. */
const name = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.constantFrom(
        ' ',
        '(',
        ')',
        '"',
        "'",
        '#',
        '#7',
        '42',
        ':',
        ' - ',
        ' connected',
        ' disconnected',
        ' (1.2.3.4:5) connected',
        '(9.9.9.9:1)',
        ` - BE GUID: ${'e'.repeat(32)}`,
        `Verified GUID (${'f'.repeat(32)}) of player #99 `,
        ` (${'d'.repeat(32)}) has been kicked by BattlEye: x`,
        ' has been kicked by BattlEye: ',
        ' (Lobby)',
        '(OK)',
        '(?)',
        'Player #5 ',
        'Дмитрий',
        '👋🏽',
        '東京',
        '\t',
        '\n',
      ),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(''))
  .filter((n) => n.length > 0);
const number = fc.integer({ min: 0, max: 999 });
const hexGuid = fc.stringMatching(/^[0-9a-f]{32}$/);
const ip = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
const port = fc.integer({ min: 1, max: 65535 });
/** Kick reasons come from BattlEye or an admin ("Admin Kick (...)"), never from the player. */
const reason = fc.oneof(
  fc.constantFrom('Client not responding', 'Admin Ban (cheating)', 'Global Ban #a1b2c3'),
  fc
    .string({ unit: 'grapheme', maxLength: 20 })
    .filter((r) => !r.includes('has been kicked by BattlEye: '))
    .map((r) => `Admin Kick (${r})`),
);

test('no name changes the number, GUID or address read from a server message', (t) => {
  fc.assert(
    fc.property(name, number, hexGuid, ip, port, reason, (n, no, g, addr, p, why) => {
      const expected: [string, ServerMessage][] = [
        [`Player #${no} ${n} (${addr}:${p}) connected`, { type: 'connected', number: no, name: n, ip: addr, port: p }],
        [`Player #${no} ${n} - BE GUID: ${g}`, { type: 'guid', number: no, name: n, guid: g }],
        [`Verified GUID (${g}) of player #${no} ${n}`, { type: 'verified', number: no, name: n, guid: g }],
        [`Player #${no} ${n} disconnected`, { type: 'disconnected', number: no, name: n }],
        [`Player #${no} ${n} (${g}) has been kicked by BattlEye: ${why}`, { type: 'kicked', number: no, name: n, guid: g, reason: why }],
      ];
      const chat = parseServerMessage(`(Global) ${n}: Player #${no} ${n} disconnected`);
      return expected.every(([text, message]) => isDeepStrictEqual(parseServerMessage(text), message)) && chat.type === 'other';
    }),
    { numRuns: 500 },
  );
  t.pass();
});

test('no name changes the number, address, ping, GUID or lobby flag read from a players row', (t) => {
  // A name has no line break (it would end the row), no leading blank (columns are blank-separated)
  // and does not itself end in " (Lobby)" (the server's own marker).
  const rowName = name.filter((n) => !/[\r\n]/.test(n) && !/^\s/.test(n) && !n.endsWith(' (Lobby)'));
  const row = fc
    .record({
      number,
      ip,
      port,
      ping: fc.integer({ min: -1, max: 999 }),
      guid: fc.option(hexGuid, { nil: undefined }),
      verified: fc.boolean(),
      name: rowName,
      lobby: fc.boolean(),
    })
    .map((p): RconPlayer => ({ ...p, verified: p.guid !== undefined && p.verified }));
  fc.assert(
    fc.property(fc.array(row, { maxLength: 6 }), fc.constantFrom(' ', '   '), (players, gap) => {
      const rows = players.map((p) =>
        [
          p.number,
          `${p.ip}:${p.port}`,
          p.ping,
          p.guid ? `${p.guid}(${p.verified ? 'OK' : '?'})` : '-',
          `${p.name}${p.lobby ? ' (Lobby)' : ''}`,
        ].join(gap),
      );
      const reply = [
        'Players on server:',
        '[#] [IP Address]:[Port] [Ping] [GUID] [Name]',
        '-'.repeat(50),
        ...rows,
        `(${rows.length} players in total)`,
      ].join('\n');
      return isDeepStrictEqual(parsePlayers(reply), players);
    }),
    { numRuns: 500 },
  );
  t.pass();
});
