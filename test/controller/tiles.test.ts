// GET /api/maps/tiles/*: tile files from MAP_TILES_DIR, and nothing else. Traversal attempts go
// out over a raw socket request (supertest would normalise '..' away) and must never answer 2xx
// (nothing outside the folder, no hidden file) nor 5xx.
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { createApp } from '../../src/app.ts';
import { controllerEnv } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema } from '../helpers/seed.ts';

const fixtureTile = new URL('../../fixtures/tiles/chernarusplus/0/0/0.png', import.meta.url);
const png = (marker: string) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(marker)]);
/** Text in every file a request must never see. */
const secretMarker = 'NEVER-SERVE-THIS';

interface RawAnswer {
  status: number;
  type: string;
  body: Buffer;
}

/** The app of an environment on a real port, and a client that sends paths exactly as written. */
interface Listening {
  get: (path: string) => Promise<RawAnswer>;
  close: () => void;
}

async function listen(env: TestEnv): Promise<Listening> {
  const server = http.createServer(createApp(env.deps).callback());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  // Keep-alive, as browsers do: a client that hangs up the moment the last byte arrives can beat
  // the server's own end of the file stream, which Koa then reports (on stderr) as a premature close.
  const agent = new http.Agent({ keepAlive: true });
  const get = (path: string) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  return {
    get,
    close: () => {
      agent.destroy();
      server.close();
    },
  };
}

let base: string;
let fixtures: TestEnv;
let sandboxed: TestEnv;
let fixturesServer: Listening;
let sandboxServer: Listening;
test.before(async () => {
  base = await mkdtemp(join(tmpdir(), 'tiles-test-'));
  const tiles = join(base, 'tiles');
  await mkdir(join(tiles, 'ok'), { recursive: true });
  await mkdir(join(base, 'tiles-evil'), { recursive: true });
  await writeFile(join(tiles, 'ok', '0.png'), png('the-real-tile'));
  await writeFile(join(base, 'secret.png'), png(`${secretMarker} outside`));
  await writeFile(join(base, 'secret.txt'), `${secretMarker} outside text`);
  await writeFile(join(base, '.env'), `JWT_SECRET=${secretMarker}`);
  await writeFile(join(base, 'tiles-evil', 'x.png'), png(`${secretMarker} sibling folder`));
  await writeFile(join(tiles, '.env'), `JWT_SECRET=${secretMarker}`);
  await writeFile(join(tiles, '.hidden.png'), png(`${secretMarker} hidden`));
  await writeFile(join(tiles, 'ok', '.x.png'), png(`${secretMarker} hidden in a folder`));
  await mkdir(join(tiles, '.git'), { recursive: true });
  await writeFile(join(tiles, '.git', 'config.png'), png(`${secretMarker} hidden folder`));
  await writeFile(join(tiles, 'ok', 'notes.txt'), `${secretMarker} not a tile type`);
  await mkdir(join(tiles, 'dir.png'), { recursive: true });

  fixtures = await controllerEnv();
  sandboxed = await controllerEnv({ MAP_TILES_DIR: tiles });
  fixturesServer = await listen(fixtures);
  sandboxServer = await listen(sandboxed);
});
test.after.always(async () => {
  fixturesServer?.close();
  sandboxServer?.close();
  await fixtures?.close();
  await sandboxed?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

const rawGet = (path: string) => sandboxServer.get(path);

test('a tile of the default folder (fixtures/tiles) is served as image/png', async (t) => {
  const res = await fixturesServer.get('/api/maps/tiles/chernarusplus/0/0/0.png');
  t.is(res.status, 200);
  t.regex(res.type, /^image\/png/);
  t.deepEqual(res.body, await readFile(fixtureTile));
});

test('an unknown tile answers 404 with the Error body, which does not name the folder on disk', async (t) => {
  const onDisk = fileURLToPath(new URL('../../fixtures/', import.meta.url));
  for (const path of [
    'chernarusplus/0/0/9.png',
    'chernarusplus/9/9/9.png',
    'nowhere/0/0/0.png',
    'chernarusplus/0/0/0.png/1.png',
    'chernarusplus',
    'chernarusplus/0/0/0.gif',
    `chernarusplus/${'a'.repeat(300)}.png`,
  ]) {
    const res = await fixtures.request.get(`/api/maps/tiles/${path}`);
    assertError(t, res, 404, 'NOT_FOUND', path.slice(0, 40));
    t.false(JSON.stringify(res.body).includes(onDisk), `${path.slice(0, 40)}: ${res.body.message}`);
    t.notRegex(String(res.body.message), /ENOENT|ENAMETOOLONG|ENOTDIR|stat /);
  }
});

test('the configured folder is the one served', async (t) => {
  const res = await rawGet('/api/maps/tiles/ok/0.png');
  t.is(res.status, 200);
  t.regex(res.type, /^image\/png/);
  t.deepEqual(res.body, png('the-real-tile'));
  const dir = await rawGet('/api/maps/tiles/dir.png');
  t.is(dir.status, 404, 'a folder is no tile');
});

const attempts = (secretPath: string) => [
  // dot segments, raw and encoded
  '/api/maps/tiles/../secret.png',
  '/api/maps/tiles/ok/../../secret.png',
  '/api/maps/tiles/ok/../../../../../../etc/passwd',
  '/api/maps/tiles/%2e%2e/secret.png',
  '/api/maps/tiles/%2E%2E/secret.png',
  '/api/maps/tiles/ok/%2e%2e/%2e%2e/secret.png',
  '/api/maps/tiles/ok/.%2e/.%2e/secret.png',
  '/api/maps/tiles/..%2fsecret.png',
  '/api/maps/tiles/%2e%2e%2fsecret.png',
  '/api/maps/tiles/ok%2f..%2f..%2fsecret.png',
  '/api/maps/tiles/ok%2F..%2F..%2Fsecret.png',
  '/api/maps/tiles/ok/..%2f..%2fsecret.png',
  '/api/maps/tiles/ok/..%2f..%2ftiles-evil%2fx.png',
  '/api/maps/tiles/../tiles-evil/x.png',
  '/api/maps/tiles/%2e%2e/tiles-evil/x.png',
  // double encoding and overlong UTF-8
  '/api/maps/tiles/%252e%252e%252fsecret.png',
  '/api/maps/tiles/ok/%252e%252e/%252e%252e/secret.png',
  '/api/maps/tiles/%c0%ae%c0%ae%c0%afsecret.png',
  '/api/maps/tiles/%c0%ae%c0%ae/secret.png',
  '/api/maps/tiles/%e0%80%ae%e0%80%ae/secret.png',
  // backslashes, raw and encoded
  '/api/maps/tiles/..\\secret.png',
  '/api/maps/tiles/ok\\..\\..\\secret.png',
  '/api/maps/tiles/..%5csecret.png',
  '/api/maps/tiles/ok%5c..%5c..%5csecret.png',
  '/api/maps/tiles/%5c..%5c..%5csecret.png',
  '/api/maps/tiles/ok/..%5C..%5Csecret.png',
  // absolute paths
  `/api/maps/tiles/${secretPath}`,
  `/api/maps/tiles/${encodeURIComponent(secretPath)}`,
  `/api/maps/tiles/${secretPath.replaceAll('/', '%2f')}`,
  '/api/maps/tiles//etc/passwd',
  '/api/maps/tiles/%2fetc%2fpasswd',
  '/api/maps/tiles/file:%2f%2f%2fetc%2fpasswd',
  '/api/maps/tiles/C:%5cWindows%5cwin.ini',
  '/api/maps/tiles/C:/Windows/win.ini',
  '/api/maps/tiles/%5c%5cserver%5cshare%5cx.png',
  // null bytes
  '/api/maps/tiles/ok/0.png%00.txt',
  '/api/maps/tiles/ok/notes.txt%00.png',
  '/api/maps/tiles/..%00/secret.png',
  '/api/maps/tiles/%00',
  '/api/maps/tiles/ok/%00.png',
  // hidden files and folders
  '/api/maps/tiles/.env',
  '/api/maps/tiles/%2eenv',
  '/api/maps/tiles/.hidden.png',
  '/api/maps/tiles/%2ehidden.png',
  '/api/maps/tiles/ok/.x.png',
  '/api/maps/tiles/ok/%2ex.png',
  '/api/maps/tiles/.git/config.png',
  '/api/maps/tiles/%2egit/config.png',
  '/api/maps/tiles/../.env',
  '/api/maps/tiles/ok/./../.env',
  '/api/maps/tiles/ok/notes.txt',
  // malformed encodings
  '/api/maps/tiles/%',
  '/api/maps/tiles/%.png',
  '/api/maps/tiles/%zz.png',
  '/api/maps/tiles/ok/%E0%A4%A.png',
  '/api/maps/tiles/%ff%fe.png',
  '/api/maps/tiles/%u002e%u002e/secret.png',
  // very long paths and names
  `/api/maps/tiles/${'a/'.repeat(2000)}x.png`,
  `/api/maps/tiles/ok/${'a'.repeat(300)}.png`,
  `/api/maps/tiles/${'../'.repeat(1000)}secret.png`,
  `/api/maps/tiles/${'%2e%2e%2f'.repeat(500)}secret.png`,
  `/api/maps/tiles/${'a'.repeat(20_000)}.png`,
  // odd shapes
  '/api/maps/tiles/',
  '/api/maps/tiles',
  '/api/maps/tiles//',
  '/api/maps/tiles/ok//0.png/..',
  '/api/maps/tiles/ok/0.png/',
  '/api/maps/tiles/ok;/../../secret.png',
  '/api/maps/tiles/ok/0.png;../../secret.png',
  '/api/maps/../../secret.png',
  '/api/maps/tiles/~/secret.png',
];

test('traversal, encoded, absolute, null-byte, hidden and over-long paths never answer 2xx or 5xx', async (t) => {
  const list = attempts(join(base, 'secret.png'));
  t.true(list.length > 60);
  for (const path of list) {
    const res = await rawGet(path);
    const label = `${path.slice(0, 120)} -> ${res.status}`;
    t.false(res.status >= 200 && res.status < 300, `${label} must not succeed`);
    t.true(res.status >= 400 && res.status < 500, `${label} is a 4xx`);
    t.false(res.body.includes(secretMarker), `${label} leaks nothing`);
    t.false(res.body.includes(base), `${label} does not name the folder on disk`);
    if (res.type.startsWith('application/json')) assertSchema(t, 'error.json', JSON.parse(res.body.toString()));
  }
  // A query string or fragment is no part of the file name: the tile itself is served, nothing else.
  for (const suffix of ['?../../secret.png', '?path=../../secret.png', '#../../secret.png']) {
    const res = await rawGet(`/api/maps/tiles/ok/0.png${suffix}`);
    t.is(res.status, 200, suffix);
    t.deepEqual(res.body, png('the-real-tile'), suffix);
  }
});

test('the tile route is not rate limited and takes no credentials', async (t) => {
  const env = await controllerEnv({ RATE_CONTROLLER: '5' });
  const listening = await listen(env);
  t.teardown(async () => {
    listening.close();
    await env.close();
  });
  for (let i = 0; i < 12; i++) {
    t.is((await listening.get('/api/maps/tiles/chernarusplus/0/0/0.png')).status, 200, `request ${i}`);
  }
  // The limit itself is live: other controller paths of this world are refused by now.
  t.is((await env.request.get('/api/setup/status')).status, 200);
  for (let i = 0; i < 5; i++) await env.request.get('/api/setup/status');
  t.is((await env.request.get('/api/setup/status')).status, 429);
});
