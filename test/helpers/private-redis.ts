// A Redis server of the test's own (redis-server on a free loopback port), for tests that pause,
// stop or restart Redis without touching the shared one.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';

export interface PrivateRedis {
  url: string;
  /** A plain client for commands the service never sends (CLIENT PAUSE, FLUSHALL). */
  admin: Redis;
  stop: () => Promise<void>;
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

async function start(): Promise<PrivateRedis | undefined> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const admin = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  admin.on('error', () => undefined);
  // A loaded machine may take a while to start it; a port taken meanwhile ends it at once.
  for (let waitedMs = 0; !exited && waitedMs < 15_000; waitedMs += 50) {
    try {
      await admin.connect();
      return {
        url: `redis://127.0.0.1:${port}`,
        admin,
        stop: async () => {
          admin.disconnect();
          if (exited) return;
          const gone = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          await gone;
        },
      };
    } catch {
      admin.disconnect();
      await delay(50);
    }
  }
  child.kill('SIGKILL');
  return undefined;
}

export async function privateRedis(): Promise<PrivateRedis> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const redis = await start();
    if (redis) return redis;
  }
  throw new Error('could not start a private redis-server');
}
