// The community's settings (GET, PATCH /api/account/settings): UTC and a 24-hour clock until
// changed; a zone is an IANA one (spelled as the zone database does), anything else a 400 that changes
// nothing; every user of the community reads them, settings.manage (owners, admins) changes them,
// and only its own community's; each change is in the audit log.
import test from 'ava';
import fc from 'fast-check';
import { canonicalZone } from '../../src/accounts/settings.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';

test('UTC and 24 hours by default; a zone and a clock set are what every user of the community reads', async (t) => {
  const env = await envFor(t);
  const owner = await setupOperator(env, 'owner');
  const viewer = await userWithRole(env, 'viewer', owner.accountId);
  t.deepEqual((await api(t, env, viewer, 'get', '/api/account/settings')).body, { timeZone: 'UTC', clock: '24h' });

  const set = await api(t, env, owner, 'patch', '/api/account/settings', { timeZone: 'europe/berlin' });
  t.is(set.status, 200);
  t.deepEqual(set.body, { timeZone: 'Europe/Berlin', clock: '24h' }, 'spelled as the zone database does; the clock left as it was');
  const kolkata = await api(t, env, owner, 'patch', '/api/account/settings', { timeZone: 'Asia/Kolkata' });
  t.is(kolkata.body.timeZone, 'Asia/Kolkata', 'never renamed to an older name the runtime may know it by (Asia/Calcutta)');
  await api(t, env, owner, 'patch', '/api/account/settings', { timeZone: 'Europe/Berlin' });
  t.deepEqual((await api(t, env, owner, 'patch', '/api/account/settings', { clock: '12h' })).body, {
    timeZone: 'Europe/Berlin',
    clock: '12h',
  });
  t.deepEqual((await api(t, env, viewer, 'get', '/api/account/settings')).body, { timeZone: 'Europe/Berlin', clock: '12h' });

  const audit = await api(t, env, owner, 'get', '/api/audit?action=account.settings');
  t.deepEqual(
    audit.body.entries.map((e: { action: string; details: object }) => [e.action, e.details]),
    [
      ['account.settings.set', { clock: '12h' }],
      ['account.settings.set', { timeZone: 'Europe/Berlin' }],
      ['account.settings.set', { timeZone: 'Asia/Kolkata' }],
      ['account.settings.set', { timeZone: 'Europe/Berlin' }],
    ],
  );
});

test('an unknown zone, an offset, another clock or an empty change is a 400 that changes nothing', async (t) => {
  const env = await envFor(t);
  const owner = await setupOperator(env, 'owner');
  await api(t, env, owner, 'patch', '/api/account/settings', { timeZone: 'Asia/Tokyo' });
  for (const body of [
    { timeZone: 'Mars/Olympus_Mons' },
    { timeZone: '+01:00' },
    { timeZone: '' },
    { timeZone: 'Asia/Tokyo', clock: '36h' },
    { clock: 12 },
    {},
    { timeZone: 'UTC', color: 'blue' },
  ]) {
    const res = await api(t, env, owner, 'patch', '/api/account/settings', body);
    assertError(t, res, 400, 'BAD_REQUEST', JSON.stringify(body));
  }
  t.regex(
    (await api(t, env, owner, 'patch', '/api/account/settings', { timeZone: 'Mars/Olympus_Mons' })).body.message,
    /"Mars\/Olympus_Mons" is no IANA time zone/,
  );
  t.deepEqual((await api(t, env, owner, 'get', '/api/account/settings')).body, { timeZone: 'Asia/Tokyo', clock: '24h' });
});

test("owners and admins change their own community's settings; moderators and viewers may not; no other community's change", async (t) => {
  const env = await envFor(t);
  const owner = await setupOperator(env, 'owner');
  const admin = await userWithRole(env, 'admin', owner.accountId);
  const other = await userWithRole(env, 'owner');
  t.is((await api(t, env, admin, 'patch', '/api/account/settings', { timeZone: 'America/New_York' })).status, 200);
  for (const role of ['moderator', 'viewer'] as const) {
    const user = await userWithRole(env, role, owner.accountId);
    assertError(t, await api(t, env, user, 'patch', '/api/account/settings', { timeZone: 'UTC' }), 403, 'FORBIDDEN', role);
  }
  t.deepEqual((await api(t, env, other, 'get', '/api/account/settings')).body, { timeZone: 'UTC', clock: '24h' }, 'untouched');
  t.is((await api(t, env, other, 'patch', '/api/account/settings', { clock: '12h' })).status, 200);
  t.deepEqual((await api(t, env, owner, 'get', '/api/account/settings')).body, { timeZone: 'America/New_York', clock: '24h' });
  assertError(t, await api(t, env, undefined, 'get', '/api/account/settings'), 401, 'UNAUTHORIZED');
});

test('property: a zone accepted is one the runtime formats in, under a name that is accepted as itself', (t) => {
  const zones = Intl.supportedValuesOf('timeZone');
  t.true(
    zones.every((zone) => canonicalZone(zone) !== undefined),
    'every zone the runtime lists',
  );
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.constantFrom(...zones),
        fc.constantFrom(...zones).map((z) => z.toLowerCase()),
      ),
      (zone) => {
        const canonical = canonicalZone(zone);
        if (canonical === undefined) return true;
        new Intl.DateTimeFormat('en-US', { timeZone: canonical }).format(0); // throws for a zone Intl does not know
        return canonicalZone(canonical) === canonical;
      },
    ),
    { numRuns: 300 },
  );
});
