// GET /api/limits: the key tiers and rate limits as the operator configured them, for any signed-in
// user (the dashboard's key pages read them), and a 401 without a session.
import test from 'ava';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { api, browserCall, call, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';

test('a signed-in user reads the tiers and limits: the defaults, the page caps and the controller limits', async (t) => {
  // controllerEnv raises RATE_AUTH and RATE_CONTROLLER for the test's one address; the rest are the defaults.
  const env = await envFor(t);
  await setupOperator(env);
  const viewer = await userWithRole(env, 'viewer');
  const res = await api(t, env, viewer, 'get', '/api/limits');
  t.is(res.status, 200);
  t.deepEqual(res.body, {
    apiKeyTiers: [
      { tier: 'standard', requestsPerMinute: 60, maxPageSize: 100 },
      { tier: 'partner', requestsPerMinute: 600, maxPageSize: 500 },
    ],
    partnerKeyTiers: [
      { tier: 'basic', requestsPerMinute: 60, maxPageSize: 500 },
      { tier: 'premium', requestsPerMinute: 300, maxPageSize: 1000 },
    ],
    perMinute: { controller: 100000, signIn: 100000, chatAction: 120, trustLookup: 60, ingest: 6000 },
  });
  t.is((await browserCall(env, viewer, 'get', '/api/limits')).status, 200, 'the dashboard reads it with its cookie');
});

test('a changed configured limit is what the route says', async (t) => {
  const env = await envFor(t, { RATE_DATA_STANDARD: '45', RATE_DATA_PARTNER: '900', RATE_EXPORT_PREMIUM: '120', RATE_CHAT: '30' });
  const operator = await setupOperator(env);
  const res = await api(t, env, operator, 'get', '/api/limits');
  t.is(res.status, 200);
  t.deepEqual(res.body.apiKeyTiers, [
    { tier: 'standard', requestsPerMinute: 45, maxPageSize: 100 },
    { tier: 'partner', requestsPerMinute: 900, maxPageSize: 500 },
  ]);
  t.like(res.body.partnerKeyTiers[1], { tier: 'premium', requestsPerMinute: 120 });
  t.is(res.body.perMinute.chatAction, 30);
});

test('with the controller limits switched off, the route says they are not enforced', async (t) => {
  const env = await envFor(t, { CONTROLLER_RATE_LIMIT: 'false' });
  const operator = await setupOperator(env);
  const res = await api(t, env, operator, 'get', '/api/limits');
  t.is(res.status, 200);
  t.deepEqual(res.body.perMinute, { controller: null, signIn: null, chatAction: null, trustLookup: 60, ingest: 6000 });
});

test('without a session the limits are a 401', async (t) => {
  const env = await envFor(t);
  await setupOperator(env);
  assertError(t, await call(env, undefined, 'get', '/api/limits'), 401, 'UNAUTHORIZED');
  assertError(t, await call(env, { token: 'not-a-session' }, 'get', '/api/limits'), 401, 'UNAUTHORIZED');
});
