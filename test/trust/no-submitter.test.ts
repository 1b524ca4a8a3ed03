// No trust answer names who submitted a pool entry or what they noted privately: the
// lookup's body, header and decoded proof, an export page and its decoded proof, the discovery
// document, the chat bot's trust.lookup and the error bodies, all read for one pool with notes.
import test from 'ava';
import { decodeJwt } from 'jose';
import { api, envFor } from '../helpers/controller-http.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { assertNoSubmitter, decide, feedSettled, rsaKey, submit } from '../helpers/trust.ts';

test('no trust answer carries a submitter, a user or a note, in bodies, headers or decoded proofs', async (t) => {
  const env = await envFor(t, { TRUST_SIGNING_KEY: rsaKey(0) });
  const operator = await setupOperator(env);
  const moderator = await userWithRole(env, 'moderator');
  const player = '76561198000000777';
  const entry = await submit(env, moderator, { platformId: player, evidence: ['https://example.org/clip'] });
  await decide(env, operator, entry.id as string, 'approve');
  await submit(env, moderator, { platformId: '76561198000000778', category: 'griefing' });
  const secrets = [moderator.userId, moderator.username, operator.userId, operator.username, moderator.accountId];
  const check = (what: string, ...parts: unknown[]) =>
    assertNoSubmitter(t, parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join('\n'), secrets, what);

  const lookup = await env.request.get(`/api/v1/trust/${player}`);
  t.is(lookup.status, 200);
  t.is(lookup.body.signals.bansActive, 1);
  check(
    'lookup',
    lookup.body,
    lookup.headers,
    decodeJwt(lookup.body.proof as string),
    decodeJwt(lookup.headers['x-service-trust-proof'] as string),
  );

  const partner = await api(t, env, operator, 'post', '/api/trust/partner-keys', { name: 'mirror', tier: 'premium' });
  await feedSettled(env);
  const page = await env.request.get('/api/v1/trust/export?limit=100').set('Authorization', `Bearer ${partner.body.key as string}`);
  t.is(page.status, 200);
  t.is(page.body.count, 1);
  check('export page', page.body, page.headers, decodeJwt(page.body.proof as string));

  const discovery = await env.request.get('/.well-known/service-trust.json');
  check('discovery', discovery.body, discovery.headers);

  const chat = await env.request
    .post('/api/chat/action')
    .send({ action: 'trust.lookup', chatUserId: '175928847299117063', params: { identifier: player } });
  t.is(chat.status, 200, JSON.stringify(chat.body));
  check('chat trust.lookup', chat.body);

  for (const path of ['/api/v1/trust/76561198000000779', '/api/v1/trust/not-an-id', '/api/v1/trust/export?limit=0']) {
    const res = await env.request.get(path).set('Authorization', `Bearer ${partner.body.key as string}`);
    t.true(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
    check(`error of ${path}`, res.body, res.headers);
  }
});
