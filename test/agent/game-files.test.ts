// The agent's side of the game-file pull (DESIGN 9 contract: GET /api/servers/:id/files/bans and
// /files/priority with the ingest token answer the rendered file). The service routes are built on
// another branch; this checks the agent's writing against a server speaking that contract.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { pullGameFiles } from '../../src/agent/game-files.ts';

const serverId = '5f0c6a2e-1d4b-4c8e-a3f7-2b9d8e6c1a01';
const warnings: string[] = [];
const log = { info: () => undefined, warn: (_f: object, m: string) => void warnings.push(m), error: () => undefined };

test('ban.txt and priority.txt are written as served, atomically, only when changed; a failed pull keeps them', async (t) => {
  const files: Record<string, { status: number; body: string }> = {
    bans: { status: 200, body: '76561198000000001\r\nhYJaNGoMDv2QEno2R7tXKUSj8eXefMiv_UvAF_EUKto=\r\n' },
    priority: { status: 200, body: '76561198000000002;' },
  };
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    const name = /\/files\/(bans|priority)$/.exec(req.url ?? '')?.[1];
    const file = name ? files[name]! : { status: 404, body: '{}' };
    res.writeHead(file.status, { 'content-type': 'text/plain' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const dir = await mkdtemp(join(tmpdir(), 'profile-'));
  const opts = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, serverId, token: 'ing_token', dir, requestTimeoutMs: 5000, log };
  t.deepEqual(await pullGameFiles(opts), ['ban.txt', 'priority.txt']);
  t.deepEqual(seen, [`GET /api/servers/${serverId}/files/bans Bearer ing_token`, `GET /api/servers/${serverId}/files/priority Bearer ing_token`]);
  t.is(await readFile(join(dir, 'ban.txt'), 'utf8'), files.bans!.body);
  t.is(await readFile(join(dir, 'priority.txt'), 'utf8'), files.priority!.body);
  t.deepEqual(await pullGameFiles(opts), [], 'unchanged files are not rewritten');
  files.bans = { status: 503, body: '{"error":"SERVICE_UNAVAILABLE"}' };
  files.priority = { status: 200, body: '76561198000000002;76561198000000003;' };
  t.deepEqual(await pullGameFiles(opts), ['priority.txt']);
  t.is(await readFile(join(dir, 'ban.txt'), 'utf8'), '76561198000000001\r\nhYJaNGoMDv2QEno2R7tXKUSj8eXefMiv_UvAF_EUKto=\r\n');
  t.true(warnings.length >= 1);
  t.deepEqual((await readdir(dir)).sort(), ['ban.txt', 'priority.txt'], 'no temporary file is left');
  await writeFile(join(dir, 'ban.txt'), 'edited by hand\n');
  await pullGameFiles({ ...opts, url: 'http://127.0.0.1:1' });
  t.is(await readFile(join(dir, 'ban.txt'), 'utf8'), 'edited by hand\n', 'an unreachable service changes nothing');
});
