import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import test from 'ava';
import { AgentOptionsError, defaultStateFile, parseAgentOptions, parseUtcOffset } from '../../src/agent/options.ts';
import { retryAfterMs } from '../../src/agent/sender.ts';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const server = '5f0c6a2e-1d4b-4c8e-a3f7-2b9d8e6c1a01';

test("flags win over AGENT_* variables; defaults fill the rest; the state file is in the user's state folder, not beside the logs", (t) => {
  const o = parseAgentOptions(
    ['--url', 'https://stats.example.com/', '--token', 'flag-token'],
    {
      AGENT_URL: 'http://ignored',
      AGENT_SERVER_ID: server.toUpperCase(),
      AGENT_TOKEN: 'env-token',
      AGENT_LOGS: '/srv/dayz/profiles',
      AGENT_ONCE: 'true',
      HOME: '/home/dayz',
    },
    silent,
  );
  const folderHash = createHash('sha256').update('/srv/dayz/profiles').digest('hex').slice(0, 12);
  t.like(o, {
    url: 'https://stats.example.com',
    serverId: server,
    token: 'flag-token',
    logs: '/srv/dayz/profiles',
    once: true,
    utcOffsetMinutes: null,
    batchMax: 500,
    batchIntervalMs: 2000,
    files: undefined,
    state: `/home/dayz/.local/state/gameservice-agent/${server}-${folderHash}.json`,
    legacyState: `/srv/dayz/profiles/.gameservice-agent-${server}.json`,
  });
  const given = parseAgentOptions(
    ['--state', '/var/lib/agent/state.json'],
    { AGENT_URL: 'http://x', AGENT_SERVER_ID: server, AGENT_TOKEN: 'k', AGENT_LOGS: '/srv/dayz/profiles' },
    silent,
  );
  t.like(given, { state: '/var/lib/agent/state.json', legacyState: undefined });
});

test("the default state file: the platform's state folder, one file per server and logs folder", (t) => {
  const hash = (logs: string) => createHash('sha256').update(logs).digest('hex').slice(0, 12);
  t.is(
    defaultStateFile({ HOME: '/home/dayz' }, server, '/srv/logs', 'linux'),
    `/home/dayz/.local/state/gameservice-agent/${server}-${hash('/srv/logs')}.json`,
  );
  t.is(
    defaultStateFile({ HOME: '/home/dayz', XDG_STATE_HOME: '/state' }, server, '/srv/logs/', 'linux'),
    `/state/gameservice-agent/${server}-${hash('/srv/logs')}.json`,
  );
  t.is(
    defaultStateFile({ HOME: '/Users/dayz' }, server, '/srv/logs', 'darwin'),
    `/Users/dayz/Library/Application Support/gameservice-agent/${server}-${hash('/srv/logs')}.json`,
  );
  t.true(
    defaultStateFile({ LOCALAPPDATA: 'C:/Users/dayz/AppData/Local' }, server, '/srv/logs', 'win32').startsWith(
      join('C:/Users/dayz/AppData/Local', 'gameservice-agent'),
    ),
  );
  // Two folders fed as the same server never share the offsets of files named alike.
  t.not(defaultStateFile({ HOME: '/h' }, server, '/srv/a', 'linux'), defaultStateFile({ HOME: '/h' }, server, '/srv/b', 'linux'));
  t.is(defaultStateFile({ HOME: '/h' }, server, 'logs', 'linux'), defaultStateFile({ HOME: '/h' }, server, resolve('logs'), 'linux'));
});

test('every problem is named at once', (t) => {
  const err = t.throws(() => parseAgentOptions(['--url', 'ftp://x', '--batch-max', '5000', '--utc-offset', '+25:00'], {}, silent), {
    instanceOf: AgentOptionsError,
  });
  for (const problem of [
    /--url must be/,
    /--server is required/,
    /--token is required/,
    /--logs is required/,
    /batchMax must be/,
    /--utc-offset/,
  ])
    t.regex(err!.message, problem);
});

test('UTC offsets: +HH:MM and -HH:MM only', (t) => {
  t.is(parseUtcOffset('+02:00'), 120);
  t.is(parseUtcOffset('-05:30'), -330);
  t.is(parseUtcOffset('+00:00'), 0);
  for (const bad of ['2', '+2:00', '02:00', '+15:00', '+01:60', 'UTC']) t.is(parseUtcOffset(bad), undefined, bad);
});

test('Retry-After: seconds or an HTTP date, capped; absent or unreadable leaves the backoff', (t) => {
  t.is(retryAfterMs('3', 60_000), 3000);
  t.is(retryAfterMs('0', 60_000), 0);
  t.is(retryAfterMs('999999', 60_000), 60_000);
  const inTwo = new Date(Date.now() + 2000).toUTCString();
  const ms = retryAfterMs(inTwo, 60_000)!;
  t.true(ms > 0 && ms <= 2000);
  t.is(retryAfterMs(new Date(Date.now() - 60_000).toUTCString(), 60_000), 0);
  for (const bad of [null, '', 'soon', 'NaN']) t.is(retryAfterMs(bad, 60_000), undefined, String(bad));
});
