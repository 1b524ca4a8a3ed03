// The id forms against the reference's test vectors, and properties of the conversions.
import test from 'ava';
import fc from 'fast-check';
import {
  battleyeGuidOf,
  classifyIdentifier,
  dayzIdOf,
  isChatSnowflake,
  isSteam64,
  legacyOf,
  platformIdKind,
  steam64FromLegacy,
  steam64Max,
  steam64Min,
} from '../../src/identities/id-forms.ts';
import { testEnv } from '../helpers/env.ts';
import { ev, ingest, tenant } from '../helpers/seed.ts';

const now = Date.parse('2026-11-23T00:00:00Z');

test('DayZ ID of the reference vector (tjensen/dayz-dev-tools)', (t) => {
  t.is(dayzIdOf('76561197970002375'), 'hYJaNGoMDv2QEno2R7tXKUSj8eXefMiv_UvAF_EUKto=');
});

test('BattlEye GUID of the reference vector', (t) => {
  t.is(battleyeGuidOf('76561198017965694'), 'f8960b9fd7cf711046c1df2ab8d534b2');
});

test('legacy STEAM_X:Y:Z both ways on a known pair; the universe digit is ignored', (t) => {
  t.is(steam64FromLegacy('STEAM_0:0:47908'), '76561197960361544');
  t.is(steam64FromLegacy('STEAM_1:0:47908'), '76561197960361544');
  t.is(steam64FromLegacy('steam_0:0:47908'), '76561197960361544');
  t.is(legacyOf('76561197960361544'), 'STEAM_0:0:47908');
  t.is(steam64FromLegacy('STEAM_0:2:1'), undefined);
  t.is(steam64FromLegacy('STEAM_0:1:99999999999'), undefined);
});

test('Steam64 range edges', (t) => {
  t.true(isSteam64(steam64Min.toString()));
  t.true(isSteam64(steam64Max.toString()));
  t.false(isSteam64((steam64Min - 1n).toString()));
  t.false(isSteam64((steam64Max + 1n).toString()));
  t.false(isSteam64('7656119800000000a'));
});

test('property: a text of 17 digits is a Steam64 exactly when its number lies in the range', (t) => {
  const near = (edge: bigint) => fc.bigInt({ min: edge - 1000n, max: edge + 1000n });
  const seventeen = fc.oneof(near(steam64Min), near(steam64Max), fc.bigInt({ min: 10n ** 16n, max: 10n ** 17n - 1n })).map(String);
  fc.assert(fc.property(seventeen, (id) => isSteam64(id) === (BigInt(id) >= steam64Min && BigInt(id) <= steam64Max)));
  fc.assert(fc.property(fc.string(), (id) => !isSteam64(id) || /^[0-9]{17}$/.test(id)));
  t.pass();
});

test('platform id kinds: Steam64, DayZ ID, console id; nothing else', (t) => {
  t.is(platformIdKind('76561198000000001'), 'steam64');
  t.is(platformIdKind('zirYiNHKZT2d5K7rusVdbSWNzF6AUa2PQFSg9EuYkGE='), 'dayzId');
  t.is(platformIdKind('D0B9EDC7A5238AB0A559C250E9849B23D2629915'), 'console');
  t.is(platformIdKind('d0b9edc7a5238ab0a559c250e9849b23d2629915'), undefined);
  t.is(platformIdKind('Unknown'), undefined);
  t.is(platformIdKind(''), undefined);
});

test('Discord snowflakes: 17-20 digits, outside the Steam64 range, dated 2015..now', (t) => {
  t.true(isChatSnowflake('175928847299117063', now)); // Discord's documented example, 2016
  t.false(isChatSnowflake('76561198000000001', now)); // a Steam64
  t.false(isChatSnowflake('4194303', now));
  const future = ((BigInt(now + 86_400_000) - 1420070400000n) << 22n).toString();
  t.false(isChatSnowflake(future, now));
});

test('classifyIdentifier: each kind, the discord: prefix, malformed input', (t) => {
  t.deepEqual(classifyIdentifier('76561198000000001', now), { kind: 'steam64', value: '76561198000000001' });
  t.deepEqual(classifyIdentifier('STEAM_0:0:47908', now), { kind: 'legacy', value: '76561197960361544' });
  t.deepEqual(classifyIdentifier('5F0C6A2E-1D4B-4C8E-A3F7-2B9D8E6C1A01', now), {
    kind: 'serviceId',
    value: '5f0c6a2e-1d4b-4c8e-a3f7-2b9d8e6c1a01',
  });
  t.deepEqual(classifyIdentifier('discord:175928847299117063', now), { kind: 'chat', value: '175928847299117063' });
  t.deepEqual(classifyIdentifier('175928847299117063', now), { kind: 'chat', value: '175928847299117063' });
  t.deepEqual(classifyIdentifier('F8960B9FD7CF711046C1DF2AB8D534B2', now), {
    kind: 'battleyeGuid',
    value: 'f8960b9fd7cf711046c1df2ab8d534b2',
  });
  // The prefix forces the chat kind, even for a number in the Steam64 range (snowflakes of mid-2015).
  t.deepEqual(classifyIdentifier('discord:76561198000000001', now), { kind: 'chat', value: '76561198000000001' });
  t.is(classifyIdentifier('discord:18446744073709551616', now), undefined, 'past 64 bits');
  t.is(classifyIdentifier('discord:abc', now), undefined);
  t.is(classifyIdentifier('not an id', now), undefined);
  t.is(classifyIdentifier('x'.repeat(500), now), undefined);
});

test('property: every Steam64 has a 44-character DayZ ID and a 32-hex GUID, and its legacy form round-trips', (t) => {
  fc.assert(
    fc.property(fc.bigInt({ min: steam64Min, max: steam64Max }), (n) => {
      const id = n.toString();
      return (
        dayzIdOf(id).length === 44 &&
        platformIdKind(dayzIdOf(id)) === 'dayzId' &&
        /^[0-9a-f]{32}$/.test(battleyeGuidOf(id)) &&
        steam64FromLegacy(legacyOf(id)) === id
      );
    }),
  );
  t.pass();
});

test('property: classifyIdentifier never throws', (t) => {
  fc.assert(
    fc.property(fc.string({ maxLength: 120 }), (s) => {
      classifyIdentifier(s, now);
      return true;
    }),
  );
  t.pass();
});

test('an ingested Steam64 player is stored with its DayZ ID and BattlEye GUID beside it', async (t) => {
  const env = await testEnv();
  t.teardown(env.close);
  const a = await tenant(env.deps);
  t.is((await ingest(env, a, [ev.presence('player.connect', env.clock.now(), 1)])).status, 200);
  const { rows } = await env.deps.db.query('SELECT platform_id, dayz_id, be_guid FROM players');
  t.deepEqual(rows, [
    { platform_id: '76561198000000001', dayz_id: dayzIdOf('76561198000000001'), be_guid: battleyeGuidOf('76561198000000001') },
  ]);
});
