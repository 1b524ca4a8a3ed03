// The attack that made any community's admin root on the service's host: a restart command run by
// the worker with a shell. Now nothing a community chooses runs there: the setting is refused with
// where restarts live now, no column can hold one, and a restart (with every worker job run) leaves
// no trace on the service's host.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { jobs } from '../../workers/main.ts';
import { runJob } from '../../src/job.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import { community } from './helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';

test("restartCommand is refused with where restarts are configured; no command a community chose runs on the service's host", async (t) => {
  const env = await envFor(t);
  const c = await community(env);
  const dir = await tempDir(t, 'no-host-commands-');
  const marker = join(dir, 'ran');
  const command = `touch ${marker}; id; cat /etc/passwd; env`;

  for (const [method, path, body] of [
    ['patch', `/api/servers/${c.serverId}`, { restartCommand: command }],
    ['patch', `/api/servers/${c.serverId}`, { name: 'x', restartCommand: null }],
    ['post', '/api/servers', { name: 'new', restartCommand: command }],
  ] as const) {
    const res = await api(t, env, c.owner, method, path, body);
    assertError(t, res, 400, 'BAD_REQUEST', `${method} ${path}`);
    t.regex(res.body.message, /restartCommand is no longer a server setting.*agent.*POST \/api\/servers\/:id\/restart.*--restart-command/s);
  }
  const { rows } = await env.deps.db.query(
    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'servers'",
  );
  t.false(
    rows.some((r) => /command/.test(r.column_name)),
    'no column holds a command',
  );

  t.is((await api(t, env, c.owner, 'post', `/api/servers/${c.serverId}/restart`, { delaySeconds: 0 })).status, 202);
  for (const job of jobs) await runJob(env.deps, job);
  t.false(existsSync(marker), 'the service ran nothing');
  t.like((await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}/commands`)).body.commands[0], {
    kind: 'restart',
    status: 'pending',
  });
  // The shell era's routes are gone.
  for (const path of ['start', 'restart']) {
    const res = await env.request
      .post(`/api/servers/${c.serverId}/${path}`)
      .set('Authorization', `Bearer ${c.owner.token}`)
      .send({ restartCommand: command });
    t.not(res.status, 202, path);
  }
});
