// A Redis Cluster of the test's own (redis-server processes on free loopback ports, joined with
// `redis-cli --cluster create`), for tests that stop a master without touching the shared cluster
// (scripts/ci/redis-cluster.sh), or that need a cluster where none is configured.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './private-redis.ts';

const run = promisify(execFile);

export interface ClusterNode {
  port: number;
  /** A plain client of this node alone (CLUSTER commands, PUBLISH on this node). */
  admin: Redis;
  /** Stops the node at once (SIGKILL: a crashed master). */
  kill: () => Promise<void>;
}

export interface PrivateCluster {
  /** REDIS_CLUSTER_NODES of the cluster. */
  nodes: string;
  members: ClusterNode[];
  /** The node that serves a slot as master now (by CLUSTER SHARDS of a live node). */
  masterOf: (slot: number) => Promise<ClusterNode>;
  stop: () => Promise<void>;
}

async function startNode(dir: string): Promise<ClusterNode> {
  // The cluster bus listens on port + 10000: it must be a port too.
  let port = await freePort();
  while (port > 55_000) port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      // A short node timeout: a stopped master is replaced within seconds.
      ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000'],
    ],
    { stdio: 'ignore' },
  );
  let exited = false;
  child.once('exit', () => (exited = true));
  const admin = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  admin.on('error', () => undefined);
  for (let waitedMs = 0; !exited && waitedMs < 15_000 && admin.status !== 'ready'; waitedMs += 50) {
    await admin.connect().catch(async () => {
      admin.disconnect();
      await delay(50);
    });
  }
  if (admin.status !== 'ready') {
    child.kill('SIGKILL');
    throw new Error(`redis-server on ${port} did not start`);
  }
  return {
    port,
    admin,
    kill: async () => {
      admin.disconnect();
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
  };
}

/** Starts `masters` masters with `replicas` replicas each, and waits until the cluster is ok. */
export async function privateCluster(masters = 3, replicas = 1): Promise<PrivateCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const members = await Promise.all(Array.from({ length: masters * (1 + replicas) }, () => startNode(dir)));
  const stop = async () => {
    await Promise.all(members.map((m) => m.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const addresses = members.map((m) => `127.0.0.1:${m.port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicas), '--cluster-yes']);
    for (const member of members) await untilOk(member);
    // A replica that never synced with its master would not take over from it.
    for (const member of members) await untilSynced(member);
  } catch (err) {
    await stop();
    throw err;
  }
  const live = () => members.find((m) => m.admin.status === 'ready')!;
  return {
    nodes: members.map((m) => `127.0.0.1:${m.port}`).join(','),
    members,
    masterOf: async (slot) => {
      const slots = (await live().admin.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const range = slots.find(([from, to]) => slot >= from && slot <= to);
      const member = members.find((m) => m.port === range?.[2][1]);
      if (!member) throw new Error(`no master serves slot ${slot}`);
      return member;
    },
    stop,
  };
}

/** Waits until a node sees every slot served (cluster_state:ok). */
export async function untilOk(node: ClusterNode, timeoutMs = 20_000): Promise<void> {
  for (let waitedMs = 0; waitedMs < timeoutMs; waitedMs += 100) {
    const info = String(await node.admin.call('CLUSTER', 'INFO'));
    if (info.includes('cluster_state:ok')) return;
    await delay(100);
  }
  throw new Error(`the cluster is not ok on ${node.port} after ${timeoutMs} ms`);
}

/** Waits until a replica's link to its master is up (a master passes at once). */
async function untilSynced(node: ClusterNode, timeoutMs = 20_000): Promise<void> {
  for (let waitedMs = 0; waitedMs < timeoutMs; waitedMs += 100) {
    const info = await node.admin.info('replication');
    if (info.includes('role:master') || info.includes('master_link_status:up')) return;
    await delay(100);
  }
  throw new Error(`the replica on ${node.port} has not synced after ${timeoutMs} ms`);
}
