// The controller's per-IP limits together: a request the tighter sign-in cap refuses does not use
// up the default limit as well.
import test from 'ava';
import { testEnv } from '../helpers/env.ts';

test('sign-ins refused by their cap leave the default limit untouched', async (t) => {
  const env = await testEnv({ RATE_AUTH: '2', RATE_CONTROLLER: '5' });
  t.teardown(env.close);
  env.clock.set(Math.ceil(env.clock.now() / 60_000) * 60_000 + 1000);
  const login = () => env.request.post('/api/auth/login').send({ username: 'nobody', password: 'wrong password' });
  t.deepEqual([(await login()).status, (await login()).status], [401, 401]);
  for (let i = 0; i < 10; i++) t.is((await login()).status, 429, `login ${i + 3}`);
  // 2 of the default 5 are used: three more controller requests pass, the sixth does not.
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await env.request.get('/api/servers')).status);
  t.deepEqual(statuses, [401, 401, 401, 429], 'past the limiter (no session) three times, then the default limit');
});
