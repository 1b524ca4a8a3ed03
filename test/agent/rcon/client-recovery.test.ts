// The RCon client over time, against the fake BattlEye server: keep-alives, a silent server, the game
// restarting on the same port, a refused password, malformed datagrams, and close() leaving nothing.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { RconUnavailable } from '../../../src/agent/rcon/commands.ts';
import { RconClient } from '../../../src/agent/rcon/client.ts';
import { parseServerMessage } from '../../../src/agent/rcon/messages.ts';
import { commandPacket } from '../../../src/agent/rcon/packet.ts';
import { FakeBattlEye } from '../../helpers/fake-battleye.ts';
import { fastTimings, loggedIn, memoryLog, next, setUp } from './rcon-setup.ts';

test('an idle client sends keep-alives (empty commands), so the server keeps it', async (t) => {
  const { fake, client } = await loggedIn(t, { clientTimeoutMs: 1_200 }, { keepAliveMs: 150 });
  await fake.waitFor(() => fake.records.keepAlives.length >= 16, 15_000, 'sixteen keep-alives');
  t.true(client.connected);
  t.is(fake.clients.length, 1, 'never dropped, though idle far longer than the server allows');
  t.is(fake.records.commands.length, 0);
  t.is(await client.command('echo still here'), 'still here');
});

test('without keep-alives the fake server drops a client (what the keep-alive test relies on)', async (t) => {
  const { fake } = await loggedIn(t, { clientTimeoutMs: 300 }, { keepAliveMs: 60_000, silentMs: 120_000 });
  await fake.waitFor(() => fake.clients.length === 0, 5_000, 'the idle client dropped');
  t.pass();
});

test('a silent server is noticed and the client logs in again', async (t) => {
  // Commands wait longer than the silence limit: the session ends before the command's tries do.
  const { fake, client } = await loggedIn(t, {}, { keepAliveMs: 100, silentMs: 800, commandTimeoutMs: 2_000 });
  const lost = next(client, 'disconnect');
  const back = next(client, 'login', 8_000);
  const inFlight = client.command('echo never answered');
  // The server forgets the session: keep-alives and commands get no answer any more.
  fake.forgetClients();
  const [reason] = await lost;
  t.regex(reason, /nothing received/);
  t.is((await t.throwsAsync(inFlight, { instanceOf: RconUnavailable }))?.reason, 'disconnected');
  await back;
  t.is(fake.records.logins.length, 2);
  t.is(await client.command('echo back'), 'back');
});

test('the game restarts on the same port: the client logs in again once it is up, message numbering anew', async (t) => {
  const { fake, client } = await loggedIn(t, {}, { keepAliveMs: 100, silentMs: 800 });
  const texts: string[] = [];
  client.on('message', (text) => texts.push(text));
  fake.join({ name: 'Anna', guid: 'aa'.repeat(16) });
  await fake.waitFor(() => texts.some((x) => x.startsWith('Verified GUID')) && fake.records.messages.every((m) => m.acked));
  const lost = next(client, 'disconnect');
  await fake.stop();
  await lost;
  t.false(client.connected);
  t.is((await t.throwsAsync(client.command('players'), { instanceOf: RconUnavailable }))?.reason, 'not-logged-in');
  // Down for a while: the client keeps trying, with backoff.
  const attemptsBefore = fake.records.logins.length;
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.is(fake.records.logins.length, attemptsBefore, 'nothing reaches a stopped server');
  const back = next(client, 'login');
  await fake.restart();
  await back;
  t.is(await client.command('echo after restart'), 'after restart');
  fake.join({ name: 'Boris', guid: 'bb'.repeat(16) });
  await fake.waitFor(() => texts.some((x) => x.startsWith('Verified GUID') && x.endsWith('Boris')));
  const seqs = fake.records.messages.filter((m) => m.text.includes('Boris') || m.text.includes('logged in')).map((m) => m.seq);
  t.true(seqs.filter((s) => s <= 1).length >= 2, 'the restarted server numbered its messages from 0 again');
  const players = texts.map(parseServerMessage).filter((m) => m.type !== 'other');
  t.deepEqual(
    players.map((m) => m.type),
    ['connected', 'guid', 'verified', 'connected', 'guid', 'verified'],
    'each once, none lost',
  );
});

test('a refused password is logged once, retried slowly, never logged itself; a new one logs in', async (t) => {
  const wrong = 'wrong-Pa55word-that-must-not-leak';
  const { fake, client, lines } = await setUp(t, {}, { password: wrong, refusedRetryMs: 150 });
  client.start();
  await fake.waitFor(() => fake.records.logins.length >= 3, 5_000, 'three refused logins');
  const logins = fake.records.logins;
  t.true(logins.every((l) => !l.ok));
  t.true(logins[2]!.at - logins[0]!.at >= 250, 'retried slowly, not hammered');
  t.false(client.connected);
  t.true(client.status === 'refused' || client.status === 'logging-in');
  t.is(lines.filter((l) => l.level === 'warn' && /refused/.test(l.message)).length, 1);
  t.is((await t.throwsAsync(client.command('players'), { instanceOf: RconUnavailable }))?.reason, 'not-logged-in');
  const login = next(client, 'login');
  client.setPassword('test-rcon-password');
  await login;
  t.true(client.connected);
  t.false(JSON.stringify(lines).includes(wrong) || JSON.stringify(lines).includes('test-rcon-password'), 'no password in any log line');
});

test('malformed datagrams are ignored and counted; the session goes on', async (t) => {
  const { fake, client, lines } = await loggedIn(t);
  const good = commandPacket(3, 'x');
  const badCrc = Buffer.from(good);
  badCrc[2]! ^= 0xff;
  for (const datagram of [Buffer.from('garbage'), Buffer.alloc(0), badCrc, Buffer.from([0x42, 0x45, 0, 0, 0, 0, 0xff])])
    fake.sendRaw(datagram);
  await fake.waitFor(() => client.counts.malformed === 4 || undefined, 5_000, 'four malformed datagrams counted');
  t.true(client.connected);
  t.is(await client.command('echo fine'), 'fine');
  t.true(lines.some((l) => l.level === 'debug' && /not understood/.test(l.message)));
});

// Serial: AVA runs these before the others, so no other test's timers or sockets are counted.
test.serial('close() fails what is pending and leaves no timer and no socket behind', async (t) => {
  const counted = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'UDPWrap');
  const before = counted();
  const fake = await FakeBattlEye.start({ password: 'p' });
  t.teardown(() => fake.close());
  const client = new RconClient({ host: fake.host, port: fake.port, password: 'p', log: memoryLog().log, ...fastTimings });
  const login = next(client, 'login');
  client.start();
  await login;
  fake.holdReplies();
  const pending = client.command('echo never');
  await Promise.all([client.close(), client.close()]);
  t.is((await t.throwsAsync(pending, { instanceOf: RconUnavailable }))?.reason, 'closed');
  t.is(client.status, 'closed');
  await fake.close();
  // libuv frees a closed socket's handle a loop turn after the close callback.
  for (let turn = 0; turn < 50 && counted().length > before.length; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.deepEqual(counted(), before);
});

test('a process using a client and the fake server exits by itself once both are closed', async (t) => {
  const script = fileURLToPath(new URL('./close-exits.fixture.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the process did not exit within 45 s: something was left running'));
    }, 45_000);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  t.is(code, 0);
  t.is(out.trim(), 'closed after: pong');
});
