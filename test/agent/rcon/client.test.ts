// The RCon client against the fake BattlEye server over real UDP on 127.0.0.1: login, commands and
// their replies (split, reordered, lost, resent), the sequence number wrapping, the bound on commands
// in flight, server messages (acknowledged at once, handed on once) and UTF-8 text.
import test from 'ava';
import { RconUnavailable } from '../../../src/agent/rcon/commands.ts';
import { parsePlayers, parseServerMessage } from '../../../src/agent/rcon/messages.ts';
import { loggedIn, next } from './rcon-setup.ts';

test('a client logs in and a command gets its reply', async (t) => {
  const { fake, client } = await loggedIn(t);
  t.true(client.connected);
  t.true(fake.records.logins.every((l) => l.ok));
  t.is(await client.command('echo hello there'), 'hello there');
  t.is(await client.command('#lock'), '');
  t.true(fake.game.locked);
  t.deepEqual(
    fake.records.commands.map((c) => [c.seq, c.text]),
    [
      [0, 'echo hello there'],
      [1, '#lock'],
    ],
  );
});

test('a reply in parts arriving in reverse order is joined by index', async (t) => {
  const { fake, client } = await loggedIn(t, { splitBytes: 16, partOrder: 'reverse' });
  for (const name of ['Anna', 'Boris the builder', 'Chen (x)', 'Dana', 'Emil']) fake.join({ name, guid: 'ab'.repeat(16) });
  const reply = await client.command('players');
  t.is(reply, fake.game.playersReply());
  t.true(fake.records.commands.length === 1 && Buffer.byteLength(reply) > 16 * 5, 'the reply really came in many parts');
  t.deepEqual(
    parsePlayers(reply).map((p) => p.name),
    ['Anna', 'Boris the builder', 'Chen (x)', 'Dana', 'Emil'],
  );
});

test('a lost reply: the same packet is resent, the reply taken once, the command run once', async (t) => {
  const { fake, client } = await loggedIn(t, {}, { commandTimeoutMs: 400 });
  fake.dropWhen('to-client', (p) => p.type === 'reply' && p.text.toString() === 'only once');
  t.is(await client.command('echo only once'), 'only once');
  t.deepEqual(
    fake.records.commands.map((c) => c.text),
    ['echo only once'],
  );
  const repeats = fake.records.repeats;
  t.true(repeats.length >= 1 && repeats.every((c) => c.seq === 0 && c.text === 'echo only once'), 'the resend carried the same number');
  t.true(client.counts.resent >= 1);
});

test('a lost part of a multipart reply: the command is resent and the whole reply comes again', async (t) => {
  const { fake, client } = await loggedIn(t, { splitBytes: 10 }, { commandTimeoutMs: 400 });
  fake.dropWhen('to-client', (p) => p.type === 'reply-part' && p.index === 1);
  const text = 'a reply long enough for several parts of ten bytes';
  t.is(await client.command(`echo ${text}`), text);
  t.is(fake.records.commands.length, 1);
  t.true(fake.records.repeats.length >= 1);
});

test('a reply in parts slower in all than one try is still taken: each part restarts the wait', async (t) => {
  const { fake, client } = await loggedIn(t, { splitBytes: 10, partDelayMs: 60 }, { commandTimeoutMs: 400, commandTries: 3 });
  // 30 parts, 60 ms apart: 1.8 s in all, more than three tries of 400 ms would wait for a whole reply.
  const text = 'thirty parts of ten bytes, sixty ms apart. '.repeat(7).slice(0, 295);
  t.is(await client.command(`echo ${text}`), text);
  t.is(fake.records.commands.length, 1);
});

test('a command that never gets a reply fails after its tries, with RconUnavailable', async (t) => {
  const { fake, client } = await loggedIn(t, {}, { commandTries: 2, commandTimeoutMs: 100 });
  fake.holdReplies();
  const err = await t.throwsAsync(client.command('echo lost'), { instanceOf: RconUnavailable });
  t.is(err?.reason, 'timeout');
  t.is(fake.records.repeats.length, 1, 'sent twice in all');
});

test('300 commands one after another: the sequence number wraps after 255', async (t) => {
  const { fake, client } = await loggedIn(t);
  for (let i = 0; i < 300; i++) t.is(await client.command(`echo ${i}`), String(i));
  t.deepEqual(
    fake.records.commands.map((c) => c.seq),
    Array.from({ length: 300 }, (_, i) => i % 256),
  );
  t.deepEqual(
    fake.records.commands.map((c) => c.text),
    Array.from({ length: 300 }, (_, i) => `echo ${i}`),
    'a wrapped number is a new command',
  );
  // Under load a reply may come late and be asked for again: such repeats are of the same command.
  t.true(fake.records.repeats.every((r) => fake.records.commands.some((c) => c.seq === r.seq && c.text === r.text)));
});

test('300 commands at once: at most maxInFlight outstanding, each reply to its own command', async (t) => {
  const { fake, client } = await loggedIn(t, {}, { maxInFlight: 8, commandTimeoutMs: 3_000, keepAliveMs: 60_000, silentMs: 120_000 });
  fake.holdReplies();
  const replies = Promise.all(Array.from({ length: 300 }, (_, i) => client.command(`echo ${i} ✓`)));
  await fake.waitFor(() => fake.records.commands.length >= 8);
  // Every datagram the client sends here leaves in this same turn; a short pause lets any extra arrive.
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(fake.records.commands.length, 8);
  t.is(client.inFlight, 8);
  fake.releaseReplies();
  t.deepEqual(
    await replies,
    Array.from({ length: 300 }, (_, i) => `${i} ✓`),
  );
  t.is(new Set(fake.records.commands.map((c) => c.text)).size, 300);
  t.is(client.inFlight, 0);
});

test('a server message is acknowledged before listeners run and handed on once when resent', async (t) => {
  const { fake, client } = await loggedIn(t, { messageResendMs: 1_000 });
  // Settled: the login notice acknowledged, and every copy of it the server sent received (the client acks each copy).
  const copiesSent = () => fake.records.messages.reduce((n, m) => n + m.sends, 0);
  await fake.waitFor(
    () => fake.records.messages.every((m) => m.acked) && client.counts.acks === copiesSent(),
    10_000,
    'the login notice settled',
  );
  const hello = () => fake.records.messages.find((m) => m.text === '(Global) Anna: hello');
  fake.dropWhen('to-server', (p) => p.type === 'ack' && p.seq === hello()?.seq);
  const seen: { text: string; acksThen: number }[] = [];
  client.on('message', () => {
    throw new Error('a listener that throws stops neither the ack nor the others');
  });
  client.on('message', (text) => seen.push({ text, acksThen: client.counts.acks }));
  const acksBefore = client.counts.acks;
  const repeatsBefore = client.counts.repeatedMessages;
  fake.broadcast('(Global) Anna: hello');
  const record = await fake.waitFor(() => hello()?.acked && hello(), 5_000, 'the ack');
  t.true(record.sends >= 2, 'the first ack was lost, the server sent it again');
  t.deepEqual(seen, [{ text: '(Global) Anna: hello', acksThen: acksBefore + 1 }]);
  t.is(client.counts.repeatedMessages - repeatsBefore, record.sends - 1);
  t.is(client.counts.acks, acksBefore + record.sends, 'every copy was acknowledged');
  t.true(client.connected);
});

test('non-ASCII text is byte-exact both ways, with characters cut across reply parts', async (t) => {
  const { fake, client } = await loggedIn(t, { splitBytes: 5 });
  const text = 'Привет, мир! 👋🏽 Ñandú — 東京 ✓';
  const bytes = Buffer.from(text, 'utf8');
  t.true(
    [5, 10, 15, 20].some((cut) => (bytes[cut]! & 0xc0) === 0x80),
    'a part boundary falls inside a character',
  );
  t.is(await client.command(`echo ${text}`), text);
  t.is(await client.command(`say -1 ${text}`), '');
  t.deepEqual(
    fake.game.said.map((s) => [s.target, s.text]),
    [[-1, text]],
  );
  const joined = next(client, 'message');
  fake.join({ name: 'Дмитрий 🐺', guid: '0f'.repeat(16), ip: '1.2.3.4', port: 2304 });
  t.deepEqual(parseServerMessage((await joined)[0]), { type: 'connected', number: 0, name: 'Дмитрий 🐺', ip: '1.2.3.4', port: 2304 });
  t.deepEqual(
    parsePlayers(await client.command('players')).map((p) => [p.number, p.name, p.guid]),
    [[0, 'Дмитрий 🐺', '0f'.repeat(16)]],
  );
});

test('kick removes the player and the server reports it; commands fail at once when not logged in', async (t) => {
  const { fake, client } = await loggedIn(t);
  const texts: string[] = [];
  client.on('message', (text) => texts.push(text));
  const n = fake.join({ name: 'Cheater (1.2.3.4:5) connected', guid: 'cd'.repeat(16) });
  await client.command(`kick ${n} banned on this community`);
  await fake.waitFor(() => texts.some((x) => x.endsWith('disconnected')));
  const kick = texts.map(parseServerMessage).find((m) => m.type === 'kicked');
  t.deepEqual(kick, {
    type: 'kicked',
    number: n,
    name: 'Cheater (1.2.3.4:5) connected',
    guid: 'cd'.repeat(16),
    reason: 'Admin Kick (banned on this community)',
  });
  t.deepEqual(parsePlayers(await client.command('players')), []);
  await client.close();
  const err = await t.throwsAsync(client.command('players'), { instanceOf: RconUnavailable });
  t.is(err?.reason, 'closed');
});
