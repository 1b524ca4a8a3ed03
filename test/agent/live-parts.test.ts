// The agent's live parts that need no server: the restart's steps, the warning texts, who the log
// says is on, presence at its edges (330 s in, 331 s out; offline said once), the active bans'
// checks (any JSON refused or held, never a crash), and the RCon options (the password never a flag).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { activeBansProblem } from '../../src/agent/active-bans.ts';
import { LogPlayers } from '../../src/agent/log-players.ts';
import { AgentOptionsError, parseAgentOptions } from '../../src/agent/options.ts';
import { Presence } from '../../src/agent/presence.ts';
import { restartSteps, warningText } from '../../src/agent/restart-sequence.ts';
import type { WireEvent } from '../../src/ingest/events.ts';
import { battleyeGuidOf, dayzIdOf } from '../../src/identities/id-forms.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const steps = (due: number) => restartSteps(due).map((s) => `${s.action}@${s.atSeconds}`);

test("a restart's steps: the warnings within the time left, lock at 60 s, files at 30 s, shutdown; late steps at once", (t) => {
  t.deepEqual(steps(300), ['warn@300', 'warn@120', 'warn@60', 'lock@60', 'warn@30', 'files@30', 'warn@10', 'shutdown@0']);
  t.deepEqual(steps(3600), steps(300), 'no warning before 300 s');
  t.deepEqual(steps(90), ['warn@60', 'lock@60', 'warn@30', 'files@30', 'warn@10', 'shutdown@0']);
  t.deepEqual(steps(45), ['lock@45', 'warn@30', 'files@30', 'warn@10', 'shutdown@0'], 'the lock comes at once when it is late');
  t.deepEqual(steps(0), ['lock@0', 'files@0', 'shutdown@0']);
  t.deepEqual(steps(-20), ['lock@0', 'files@0', 'shutdown@0'], 'a resumed restart already due');
});

test("warning texts say the time left in words, with the admin's message", (t) => {
  t.is(warningText(300, null), 'Server restart in 5 minutes');
  t.is(warningText(60, 'Daily restart'), 'Server restart in 1 minute: Daily restart');
  t.is(warningText(10, null), 'Server restart in 10 seconds');
});

const A = dayzIdOf('76561198000000001');
const B = dayzIdOf('76561198000000002');
const at = (type: WireEvent['type'], ts: number, extra: object = {}) => ({ id: 'x', type, ts, ...extra }) as WireEvent;

test("the log's players: connects and disconnects between PlayerLists, each list replacing the set; a new log file empties it", (t) => {
  const log = new LogPlayers();
  log.observe(at('server.started', 1000));
  t.is(log.listedAtMs, 1000);
  log.observe(at('player.connect', 2000, { platformId: A, name: 'Alice' }));
  log.observe(at('player.connect', 3000, { platformId: B, name: 'Bob' }));
  log.observe(at('player.disconnect', 4000, { platformId: B, name: 'Bob' }));
  t.deepEqual([...log.connected], [[A, 'Alice']]);
  log.observe(at('server.status', 300_000, { online: true, players: 1 }));
  log.observe(at('player.heartbeat', 300_000, { platformId: B, name: 'Bob' }));
  t.deepEqual([...log.connected], [[B, 'Bob']], 'the list says who is on');
  t.is(log.listedAtMs, 300_000);
  t.is(log.idOf('Alice'), A);
  t.is(log.nameOf(B), 'Bob');
  log.observe(at('player.connect', 301_000, { platformId: dayzIdOf('76561198000000003'), name: 'Alice' }));
  t.is(log.idOf('Alice'), undefined, 'a name two players use matches neither');
  log.observe(at('server.started', 400_000));
  t.is(log.connected.size, 0);
});

test('presence from the log: heartbeats and status every round while the PlayerList is at most 330 s old; then offline, said once', async (t) => {
  const log = new LogPlayers();
  log.observe(at('server.status', 0, { online: true, players: 2 }));
  log.observe(at('player.heartbeat', 0, { platformId: A, name: 'Alice' }));
  log.observe(at('player.heartbeat', 0, { platformId: B, name: 'Bob' }));
  const presence = new Presence();
  t.deepEqual((await presence.events(undefined, log, 30_000)).map(shape), [
    ['player.heartbeat', A],
    ['player.heartbeat', B],
    ['server.status', true, 2],
  ]);
  t.is((await presence.events(undefined, log, 330_000)).length, 3, '330 s in');
  t.deepEqual((await presence.events(undefined, log, 331_000)).map(shape), [['server.status', false, 0]], '331 s out');
  t.deepEqual(await presence.events(undefined, log, 361_000), [], 'said once');
  t.deepEqual(await new Presence().events(undefined, new LogPlayers(), 0), [], 'nothing known, nothing said');
});

const shape = (e: WireEvent) =>
  e.type === 'server.status' ? [e.type, e.online, e.players] : [e.type, 'platformId' in e ? e.platformId : ''];

const steam = '76561198000000042';
const good = {
  banId: 'b1',
  platformId: steam,
  steam64: steam,
  dayzId: dayzIdOf(steam),
  beGuid: battleyeGuidOf(steam),
  reason: 'aimbot',
  expiresAt: null,
};

test('the active bans: a list of bans with ids of their kinds is held; anything else is refused whole', (t) => {
  t.is(
    activeBansProblem({
      bans: [good, { ...good, banId: 'b2', platformId: A, steam64: null, dayzId: A, beGuid: null, expiresAt: '2026-12-01T00:00:00Z' }],
    }),
    undefined,
  );
  for (const bad of [
    null,
    [],
    { bans: {} },
    { bans: [{ ...good, platformId: '../../etc/passwd' }] },
    { bans: [{ ...good, beGuid: 'A'.repeat(32) }] },
    { bans: [{ ...good, steam64: `${steam}\n` }] },
    { bans: [{ ...good, expiresAt: 'soon' }] },
    { bans: [good, 7] },
  ]) {
    t.truthy(activeBansProblem(bad), JSON.stringify(bad));
  }
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const problem = activeBansProblem(value);
      t.true(problem === undefined || typeof problem === 'string');
    }),
    { numRuns: 500 },
  );
});

test('RCon options: port and password from a file (its line end is not part of it) or AGENT_RCON_PASSWORD; never a password flag', async (t) => {
  const dir = await tempDir(t, 'agent-rcon-options-');
  const file = join(dir, 'rcon-password.txt');
  await writeFile(file, 'S3cret-pass\r\n');
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const base = ['--url', 'http://x', '--server', '5f0c6a2e-1d4b-4c8e-a3f7-2b9d8e6c1a01', '--token', 'svci_x', '--logs', dir];
  t.deepEqual(parseAgentOptions([...base, '--rcon-port', '2305', '--rcon-password-file', file], {}, log).rcon, {
    host: '127.0.0.1',
    port: 2305,
    password: 'S3cret-pass',
  });
  t.deepEqual(
    parseAgentOptions([...base, '--rcon-host', '10.0.0.5'], { AGENT_RCON_PORT: '2306', AGENT_RCON_PASSWORD: 'fromEnv' }, log).rcon,
    { host: '10.0.0.5', port: 2306, password: 'fromEnv' },
  );
  t.is(parseAgentOptions(base, {}, log).rcon, undefined);
  t.throws(() => parseAgentOptions([...base, '--rcon-password', 'x'], {}, log), undefined, 'no such flag');
  for (const [argv, problem] of [
    [['--rcon-port', '2305'], /RCon needs its password/],
    [['--rcon-port', '70000', '--rcon-password-file', file], /--rcon-port must be a port/],
    [['--rcon-password-file', file], /--rcon-port is required/],
    [['--rcon-port', '2305', '--rcon-password-file', join(dir, 'none')], /cannot be read \(ENOENT\)/],
  ] as const) {
    const err = t.throws(() => parseAgentOptions([...base, ...argv], {}, log), { instanceOf: AgentOptionsError });
    t.regex(err!.message, problem);
    t.false(err!.message.includes('S3cret'), 'the password is never in a message');
  }
  t.is(parseAgentOptions([...base, '--restart-command', 'systemctl restart dayz'], {}, log).restartCommand, 'systemctl restart dayz');
});
