// The web process serves the dashboard's build: its pages for any other path a browser asks for,
// the public player page under /p/, hashed assets cached for good; never in place of an /api or
// /.well-known answer; and a 503 in words when the build is missing.
import test from 'ava';
import Koa from 'koa';
import supertest from 'supertest';
import { dashboard } from '../../src/dashboard/serve.ts';
import { buildState } from '../../web/build-state.ts';
import { envFor } from '../helpers/controller-http.ts';
import { tempDirSync } from '../helpers/temp-dir.ts';

test('pages, the player page and assets are served; /api and /.well-known paths never are', async (t) => {
  t.is(buildState(), 'fresh', 'npm test builds the dashboard first (npm run build:web)');
  const env = await envFor(t);
  for (const path of ['/', '/servers', '/servers/5f0c6a2e-1d4b-4c8e-a3f7-2b9d8e6c1a01', '/account/api-keys']) {
    const res = await env.request.get(path).set('Accept', 'text/html');
    t.is(res.status, 200, path);
    t.regex(res.text, /<title>Dashboard/, path);
    t.is(res.headers['cache-control'], 'no-cache');
    t.regex(res.headers['content-security-policy'] ?? '', /default-src 'self'/);
  }
  const player = await env.request.get('/p/76561198000000001').set('Accept', 'text/html');
  t.is(player.status, 200);
  t.regex(player.text, /<title>Player trust/);
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(player.text)![1]!;
  const asset = await env.request.get(script);
  t.is(asset.status, 200);
  t.regex(asset.headers['content-type'] ?? '', /javascript/);
  t.regex(asset.headers['cache-control'] ?? '', /immutable/);

  for (const path of ['/api/nope', '/API/SERVERS', '/.well-known/nope', '/api']) {
    const res = await env.request.get(path).set('Accept', 'text/html');
    t.true([401, 404].includes(res.status), `${path}: ${res.status}`);
    t.is(res.body.statusCode, res.status, `${path} answers the Error body`);
  }
  t.is((await env.request.get('/assets/missing.js')).status, 404);
  t.is((await env.request.get('/servers').set('Accept', 'application/json')).status, 404, 'a script asking for JSON gets the 404');
  t.is((await env.request.post('/servers').set('Accept', 'text/html')).status, 404, 'pages answer GET and HEAD only');
  for (const path of ['/assets/..%2f..%2fpackage.json', '/assets/../../package.json', '/..%2fpackage.json', '/p/..%2f..%2fpackage.json']) {
    t.false((await env.request.get(path)).text.includes('gameserver-trust-service'), `${path} leads out of the build`);
  }
});

test('without a build, a page says how to build it', async (t) => {
  const app = new Koa();
  app.use(dashboard(tempDirSync(t, 'no-dashboard-')));
  const res = await supertest(app.callback()).get('/servers').set('Accept', 'text/html');
  t.is(res.status, 503);
  t.regex(res.text, /The dashboard is not built yet\. Run `npm run build:web`/);
});
