// Shared set-up of the RCon client tests: a fake BattlEye server and a client with short timings,
// both closed when the test ends, a log kept in memory, and waiting for a client event with a timeout.
import type { ExecutionContext } from 'ava';
import { RconClient } from '../../../src/agent/rcon/client.ts';
import type { RconClientOptions, RconEvents } from '../../../src/agent/rcon/client.ts';
import { FakeBattlEye } from '../../helpers/fake-battleye.ts';
import type { FakeBattlEyeOptions } from '../../helpers/fake-battleye.ts';

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: object;
  message: string;
}

export function memoryLog() {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (fields: object, message: string) => void lines.push({ level, fields, message });
  return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

/** Timings short enough for tests, long enough for a loaded machine; each test overrides what it checks. */
export const fastTimings = {
  keepAliveMs: 5_000,
  commandTimeoutMs: 2_000,
  commandTries: 3,
  loginTimeoutMs: 1_000,
  silentMs: 10_000,
  reconnectBaseMs: 50,
  reconnectMaxMs: 200,
  refusedRetryMs: 200,
};

export const password = 'test-rcon-password';

/** Resolves with the event's arguments the next time the client emits it; rejects after `timeoutMs`. */
export function next<K extends keyof RconEvents>(client: RconClient, event: K, timeoutMs = 5_000): Promise<RconEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${String(event)} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = client.on(event, (...args) => {
      clearTimeout(timer);
      off();
      resolve(args);
    });
  });
}

type ClientOverrides = Partial<Omit<RconClientOptions, 'host' | 'port' | 'log'>>;

/** A fake server and a client not yet started; both closed at the end of the test. */
export async function setUp(t: ExecutionContext, fakeOptions: Partial<FakeBattlEyeOptions> = {}, clientOptions: ClientOverrides = {}) {
  const fake = await FakeBattlEye.start({ password, messageResendMs: 200, ...fakeOptions });
  const { lines, log } = memoryLog();
  const client = new RconClient({ host: fake.host, port: fake.port, password, log, ...fastTimings, ...clientOptions });
  t.teardown(async () => {
    await client.close();
    await fake.close();
  });
  return { fake, client, lines };
}

/** As setUp, and logged in. */
export async function loggedIn(t: ExecutionContext, fakeOptions: Partial<FakeBattlEyeOptions> = {}, clientOptions: ClientOverrides = {}) {
  const set = await setUp(t, fakeOptions, clientOptions);
  const login = next(set.client, 'login');
  set.client.start();
  await login;
  return set;
}
