// Player-profile test helpers: a community with servers and roles, players of unique Steam64s,
// events fed through ingestion, and the profile read through the documented API.
import type { ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { registerServer } from '../../src/servers/server.ts';
import { api } from '../helpers/controller-http.ts';
import { userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ingest } from '../helpers/seed.ts';

export interface Community {
  owner: Session;
  moderator: Session;
  viewer: Session;
  servers: { id: string; token: string; name: string }[];
}

export async function community(env: TestEnv, serverCount = 2): Promise<Community> {
  const owner = await userWithRole(env, 'owner');
  const moderator = await userWithRole(env, 'moderator', owner.accountId);
  const viewer = await userWithRole(env, 'viewer', owner.accountId);
  const servers = [];
  for (let i = 0; i < serverCount; i++) {
    const name = `server ${i + 1} ${randomUUID().slice(0, 4)}`;
    const { server, ingestToken } = await registerServer(env.deps, owner.accountId, { name });
    servers.push({ id: server.id, token: ingestToken, name });
  }
  return { owner, moderator, viewer, servers };
}

let next = 0;
/** A Steam64 no other test of the process uses. */
export const freshSteam64 = () => String(76561198500000000n + BigInt(process.pid % 1000) * 100000n + BigInt(++next));

type Ev = Record<string, unknown>;
const who = (platformId: string, name: string) => ({ platformId, name });
export const events = {
  presence: (type: 'player.connect' | 'player.heartbeat' | 'player.disconnect', tsMs: number, platformId: string, name: string): Ev => ({
    id: randomUUID(),
    type,
    ts: tsMs,
    ...who(platformId, name),
  }),
  kill: (tsMs: number, killer: [string, string], victim: [string, string], extra: Ev = {}): Ev => ({
    id: randomUUID(),
    type: 'kill',
    ts: tsMs,
    killer: who(...killer),
    victim: who(...victim),
    weapon: 'M4A1',
    distance: 120,
    isHeadshot: false,
    ...extra,
  }),
};

export async function feed(t: ExecutionContext, env: TestEnv, server: { id: string; token: string }, list: Ev[]): Promise<void> {
  const res = await ingest(env, { serverId: server.id, token: server.token }, list);
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.accepted, list.length, JSON.stringify(res.body));
}

/** GET /api/players/:identifier, checked against its documented schema. */
export async function profileOf(t: ExecutionContext, env: TestEnv, session: Session, identifier: string) {
  const res = await api(t, env, session, 'get', `/api/players/${encodeURIComponent(identifier)}`);
  t.is(res.status, 200, `profile of ${identifier}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}
