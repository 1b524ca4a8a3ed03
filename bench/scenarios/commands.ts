// Actions on game hosts through the agent, measured end to end: 10 communities of 5 servers, each
// server with a fake BattlEye server (UDP on 127.0.0.1) and the agent's live part (GameHost: the
// command long poll, RCon, the active bans) in this process, against the service child.
//   1. ban made -> kick received: 200 bans over HTTP (4 at a time), each of a player on one of the
//      community's servers; from the request to the kick on that server's fake BattlEye.
//   2. banned join -> kick: the same 200 players join again; from BattlEye's GUID message to the kick.
//   3. 2,500 agents' long polls held by the one web process (the fleet's servers, re-polling every
//      30 s): the web process's memory with and without them, and the status route's p99 (1,000
//      reads a second, open loop) without and with them.
import { setMaxListeners } from 'node:events';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { insertAccount } from '../../src/accounts/account.repo.ts';
import { GameHost } from '../../src/agent/game-host.ts';
import { agentDefaults } from '../../src/agent/options.ts';
import { startSession } from '../../src/auth/session.ts';
import type { Deps } from '../../src/deps.ts';
import { battleyeGuidOf } from '../../src/identities/id-forms.ts';
import { registerServer, rotateIngestToken } from '../../src/servers/server.ts';
import { listServerRecords } from '../../src/servers/server.repo.ts';
import { createUser } from '../../src/users/users.ts';
import { FakeBattlEye } from '../../test/helpers/fake-battleye.ts';
import { ids } from '../fixture.ts';
import { KeepAliveClient, requestBytes } from '../keep-alive-client.ts';
import { percentile, tenths } from '../latencies.ts';
import { pacedReads } from '../paced-reads.ts';
import { post } from '../post.ts';
import { fleetServers } from './fleet.ts';
import type { Scenario, ScenarioRow } from './scenario.ts';
import { fmt } from './scenario.ts';

const communities = 10;
const serversEach = 5;
const bans = Number(process.env.BENCH_COMMANDS_BANS ?? 200);
const bansInFlight = 4;
const polls = Number(process.env.BENCH_COMMANDS_POLLS ?? 2500);
const readSeconds = Number(process.env.BENCH_COMMANDS_READ_SECONDS ?? 35);
// The polls' bar is the fleet's (a background load beside 1,000 status reads a second): p99 under 3 x idle.
const targets = { banToKickP99Ms: 2000, joinToKickP99Ms: 1000, pollsStatusP99Factor: 3 };
const password = 'bench-rcon';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface Community {
  accountId: string;
  session: string;
  servers: { id: string; token: string; fake: FakeBattlEye; host: GameHost }[];
}

export const commandsScenario: Scenario = {
  name: 'commands',
  async run(ctx) {
    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const all: Community[] = [];
    try {
      await setUp(ctx.deps, ctx.service.url, stop.signal, all);
      const players = Array.from({ length: bans }, (_, i) => ({
        c: all[i % communities]!,
        s: Math.floor(i / communities) % serversEach,
        steam64: String(76561199100000000n + BigInt(i)),
        name: `bench cheater ${i}`,
      }));
      const banToKick = await banKicks(ctx.service.url, players);
      const joinToKick = await joinKicks(players);
      const rows = [
        row("ban made -> kick received (50 servers' agents)", banToKick, targets.banToKickP99Ms),
        row("banned player's GUID message -> kick", joinToKick, targets.joinToKickP99Ms),
      ];
      ctx.say(
        `  commands: ban -> kick p50 ${banToKick.p50} ms, p99 ${banToKick.p99} ms (${banToKick.n}); GUID -> kick p50 ${joinToKick.p50} ms, p99 ${joinToKick.p99} ms (${joinToKick.n})`,
      );
      return [...rows, await heldPolls(ctx)];
    } finally {
      stop.abort();
      for (const c of all) for (const s of c.servers) await s.fake.close();
    }
  },
};

function row(work: string, m: { p50: number; p99: number; n: number; missed: number }, targetMs: number): ScenarioRow {
  const pass = m.missed === 0 && m.p99 < targetMs;
  return {
    cells: [
      work,
      `${m.n} kicks, p50 ${m.p50} ms${m.missed ? `, ${m.missed} missed` : ''}`,
      String(m.p99),
      '–',
      `p99 < ${fmt(targetMs)} ms`,
      pass ? 'PASS' : 'FAIL',
    ],
    pass,
  };
}

/** The communities, their owners' sessions, their servers with a fake BattlEye and a running agent each; earlier runs' bans lifted. */
async function setUp(deps: Deps, url: string, stop: AbortSignal, all: Community[]): Promise<void> {
  for (let c = 0; c < communities; c++) {
    const name = `bench commands ${c}`;
    const found = await deps.db.query<{ id: string }>('SELECT id FROM accounts WHERE name = $1', [name]);
    const accountId = found.rows[0]?.id ?? (await insertAccount(deps.db, name)).id;
    await deps.db.query('UPDATE bans SET lifted_at = now() WHERE account_id = $1 AND lifted_at IS NULL', [accountId]);
    await deps.db.query(
      "UPDATE server_commands SET status = 'expired', finished_at = now() WHERE account_id = $1 AND status IN ('pending', 'sent')",
      [accountId],
    );
    const owner = await deps.db.query<{ id: string }>('SELECT id FROM users WHERE account_id = $1 AND deleted_at IS NULL LIMIT 1', [
      accountId,
    ]);
    const userId = owner.rows[0]?.id ?? (await createUser(deps, accountId, `bench-commands-owner-${c}`, `pw-${randomText()}`, 'owner')).id;
    const session = (await startSession(deps, userId)).token;
    const known = new Map((await listServerRecords(deps.db, accountId)).map((s) => [s.name, s.id]));
    const servers = [];
    for (let s = 0; s < serversEach; s++) {
      const serverName = `bench commands ${c}.${s}`;
      const id = known.get(serverName) ?? (await registerServer(deps, accountId, { name: serverName })).server.id;
      const token = (await rotateIngestToken(deps, accountId, id))!;
      const fake = await FakeBattlEye.start({ password });
      const host = new GameHost(
        {
          ...agentDefaults,
          url,
          serverId: id,
          token,
          logs: '',
          state: '',
          utcOffsetMinutes: 0,
          once: false,
          log: silent,
          rcon: { host: '127.0.0.1', port: fake.port, password },
        },
        async () => undefined,
      );
      // A signal of its own: an agent's waits listen to it, as many as a lone agent's.
      const own = new AbortController();
      stop.addEventListener('abort', () => own.abort(), { once: true });
      void host.run(own.signal, own.signal);
      servers.push({ id, token, fake, host });
    }
    all.push({ accountId, session, servers });
  }
  for (const c of all) for (const s of c.servers) await s.fake.waitFor(() => s.fake.clients.length > 0, 30_000, 'the agent logged in');
}

const randomText = () => Math.random().toString(36).slice(2);
type Player = { c: Community; s: number; steam64: string; name: string };

function summary(latencies: number[], missed: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: tenths(percentile(sorted, 50)), p99: tenths(percentile(sorted, 99)), n: sorted.length, missed };
}

async function banKicks(url: string, players: Player[]) {
  const latencies: number[] = [];
  let missed = 0;
  let next = 0;
  const worker = async () => {
    while (next < players.length) {
      const p = players[next++]!;
      const server = p.c.servers[p.s]!;
      const seat = server.fake.join({ name: p.name, guid: battleyeGuidOf(p.steam64) });
      const kicked = server.fake.waitForCommand((r) => r.text.startsWith(`kick ${seat} `), 10_000);
      const at = Date.now();
      const res = await post(
        `${url}/api/bans`,
        { authorization: `Bearer ${p.c.session}`, 'content-type': 'application/json' },
        JSON.stringify({ platformId: p.steam64, reason: 'bench' }),
      );
      if (res.status !== 201) throw new Error(`ban refused: ${res.status} ${res.text}`);
      await kicked.then(
        (r) => latencies.push(r.at - at),
        () => (missed += 1),
      );
    }
  };
  await Promise.all(Array.from({ length: bansInFlight }, worker));
  return summary(latencies, missed);
}

async function joinKicks(players: Player[]) {
  // Every agent holds its community's bans (a kick command makes it refresh them at once).
  for (const c of new Set(players.map((p) => p.c))) {
    const banned = players.filter((p) => p.c === c).length;
    for (const s of c.servers) await s.fake.waitFor(() => s.host.bans.size >= banned, 30_000, 'the agent holds the bans');
  }
  const latencies: number[] = [];
  let missed = 0;
  for (const p of players) {
    const fake = p.c.servers[p.s]!.fake;
    const at = Date.now();
    const seat = fake.join({ name: p.name, guid: battleyeGuidOf(p.steam64) });
    await fake
      .waitForCommand((r) => r.text.startsWith(`kick ${seat} `), 5000)
      .then(
        (r) => latencies.push(r.at - at),
        () => (missed += 1),
      );
  }
  return summary(latencies, missed);
}

/** The web process's resident memory (Linux), in MB. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function heldPolls(ctx: Parameters<Scenario['run']>[0]): Promise<ScenarioRow> {
  const fleet = (await fleetServers(ctx.deps)).slice(0, polls);
  const statusUrl = `${ctx.service.url}/api/v1/data/servers/${ids.readServer}`;
  const headers = { authorization: `Bearer ${ctx.creds.apiKey}` };
  const read = () => pacedReads({ url: statusUrl, headers, perSecond: 1000, warmupSeconds: 5, seconds: readSeconds });
  const idle = await read();
  const rssBefore = await rssMb(ctx.service.process.pid!);
  const client = new KeepAliveClient(ctx.service.url, { idleMs: 4000, timeoutMs: 45_000, maxConnections: polls + 100 });
  let stopped = false;
  let answered = 0;
  let failed = 0;
  const poller = async (server: { id: string; token: string }, startMs: number) => {
    await new Promise((r) => setTimeout(r, startMs));
    const bytes = requestBytes('GET', client.url(`/api/servers/${server.id}/commands/next?wait=30`), {
      authorization: `Bearer ${server.token}`,
    });
    while (!stopped) {
      const res = await client.request(bytes).catch(() => undefined);
      // The polls cut off by the end of the run are not failures.
      if (stopped) return;
      if (!res || (res.status !== 204 && res.status !== 200)) failed += 1;
      else answered += 1;
    }
  };
  // Their starts spread over 10 s, as agents that started at different times.
  const running = fleet.map((s, i) => poller(s, (i / fleet.length) * 10_000));
  await new Promise((r) => setTimeout(r, 12_000));
  const rssHeld = await rssMb(ctx.service.process.pid!);
  const started = performance.now();
  const busy = await read();
  const rssAfter = await rssMb(ctx.service.process.pid!);
  stopped = true;
  client.close();
  await Promise.allSettled(running);
  const addedMb = Math.max(rssHeld, rssAfter) - rssBefore;
  const pass = busy.ok === busy.due && busy.p99Ms <= targets.pollsStatusP99Factor * Math.max(1, idle.p99Ms);
  ctx.say(
    `  commands: ${fmt(fleet.length)} long polls held for ${fmt((performance.now() - started) / 1000, 0)} s: web RSS ${fmt(rssBefore)} -> ${fmt(rssHeld)} / ${fmt(rssAfter)} MB ` +
      `(+${fmt(addedMb)} MB, ${fmt((addedMb * 1024) / fleet.length, 1)} kB a poll); ${fmt(answered)} polls answered, ${failed} failed; status p99 ${busy.p99Ms} ms (idle ${idle.p99Ms} ms), ${busy.ok} of ${busy.due}`,
  );
  return {
    cells: [
      `${fmt(fleet.length)} agents' long polls held by one web process (re-polling every 30 s)`,
      `+${fmt(addedMb)} MB RSS (${fmt((addedMb * 1024) / fleet.length, 1)} kB a poll)`,
      `status ${busy.p99Ms} (idle ${idle.p99Ms})`,
      '–',
      `status p99 (1,000 reads/s) < ${targets.pollsStatusP99Factor} x idle`,
      pass ? 'PASS' : 'FAIL',
    ],
    pass,
  };
}
