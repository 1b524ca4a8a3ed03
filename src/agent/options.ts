// The agent's command line (docs/agent.md): every flag also read from the environment (AGENT_URL,
// AGENT_SERVER_ID, ...), the flag winning. Validated before anything starts: a bad value exits with
// one line per problem. This is the agent's configuration; it reads only the env object it is given.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { Command, Option } from 'commander';
import { isUuid } from '../http/uuid.ts';
import type { AgentClock } from './agent-clock.ts';
import type { AgentLog } from './sender.ts';

export interface AgentOptions {
  url: string;
  serverId: string;
  token: string;
  logs: string;
  files?: string;
  state: string;
  /**
   * Where an earlier version kept the state by default (beside the logs): read when `state` does not
   * exist yet, and removed once the state is saved where it belongs.
   */
  legacyState?: string;
  utcOffsetMinutes: number | null;
  once: boolean;
  batchMax: number;
  batchIntervalMs: number;
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  filesIntervalMs: number;
  /** BattlEye RCon on the game host: kicks, messages, restarts and the player list go through it. */
  rcon?: { host: string; port: number; password: string };
  /** This host's own command run at a restart's time (its owner's configuration, never the service's). */
  restartCommand?: string;
  requestTimeoutMs: number;
  /** After SIGTERM, how long unacknowledged batches are still retried before the agent exits anyway. */
  stopGraceMs: number;
  /** The live parts' clock (restart countdowns, presence); tests run a faster one. */
  clock?: AgentClock;
  log: AgentLog;
}

export const agentDefaults = {
  batchMax: 500,
  batchIntervalMs: 2000,
  pollMs: 1000,
  retryBaseMs: 500,
  retryMaxMs: 30_000,
  filesIntervalMs: 60_000,
  requestTimeoutMs: 30_000,
  stopGraceMs: 10_000,
} satisfies Partial<AgentOptions>;

export class AgentOptionsError extends Error {}

/** `+HH:MM` / `-HH:MM` -> minutes east of UTC. */
export function parseUtcOffset(text: string): number | undefined {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!m || Number(m[2]) > 14 || Number(m[3]) > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

const flags = [
  ['url', 'AGENT_URL', '--url <url>', 'base URL of the service, e.g. https://stats.example.com'],
  ['server', 'AGENT_SERVER_ID', '--server <id>', 'the server id (UUID)'],
  ['token', 'AGENT_TOKEN', '--token <token>', "the server's ingest token"],
  ['logs', 'AGENT_LOGS', '--logs <dir>', 'the folder holding the .ADM files (the server profile)'],
  ['files', 'AGENT_FILES', '--files <dir>', 'keep ban.txt and priority.txt in this folder'],
  [
    'state',
    'AGENT_STATE',
    '--state <file>',
    "the state file (default: gameservice-agent/<server id>-<logs folder's hash>.json in this user's state folder)",
  ],
  [
    'utcOffset',
    'AGENT_UTC_OFFSET',
    '--utc-offset <offset>',
    "the game server clock's offset from UTC, +HH:MM or -HH:MM (default: this host's zone)",
  ],
  ['once', 'AGENT_ONCE', '--once', 'read every complete line present, wait for every acknowledgement, exit'],
  ['batchMax', 'AGENT_BATCH_MAX', '--batch-max <n>', 'events per batch (1-1000)'],
  ['batchIntervalMs', 'AGENT_BATCH_INTERVAL_MS', '--batch-interval-ms <ms>', 'send a batch at least this often'],
  ['pollMs', 'AGENT_POLL_MS', '--poll-ms <ms>', 'how often the logs are checked for new lines'],
  ['retryBaseMs', 'AGENT_RETRY_BASE_MS', '--retry-base-ms <ms>', 'first retry delay (doubles up to --retry-max-ms)'],
  ['retryMaxMs', 'AGENT_RETRY_MAX_MS', '--retry-max-ms <ms>', 'longest retry delay'],
  [
    'filesIntervalMs',
    'AGENT_FILES_INTERVAL_MS',
    '--files-interval-ms <ms>',
    'how often ban.txt, priority.txt and the active bans are pulled',
  ],
  [
    'rconPort',
    'AGENT_RCON_PORT',
    '--rcon-port <port>',
    "BattlEye RCon's port (RConPort in BEServer_x64.cfg): kicks, messages, restarts, the player list",
  ],
  ['rconHost', 'AGENT_RCON_HOST', '--rcon-host <host>', 'where RCon listens (default 127.0.0.1)'],
  [
    'rconPasswordFile',
    'AGENT_RCON_PASSWORD_FILE',
    '--rcon-password-file <file>',
    'a file holding RConPassword (else the AGENT_RCON_PASSWORD variable; never a flag, which any user sees in the process list)',
  ],
  [
    'restartCommand',
    'AGENT_RESTART_COMMAND',
    '--restart-command <command>',
    "run at a restart's time on this host (after #shutdown when RCon is on), for a game server without a process supervisor",
  ],
] as const;

type Key = (typeof flags)[number][0];

export function parseAgentOptions(argv: string[], env: Record<string, string | undefined>, log: AgentOptions['log']): AgentOptions {
  const command = new Command().name('agent').description("Feeds a DayZ server's admin logs to the service").exitOverride();
  for (const [, envName, flag, description] of flags) command.addOption(new Option(flag, `${description} [env ${envName}]`));
  command.parse(argv, { from: 'user' });
  const given = command.opts<Partial<Record<Key, string | boolean>>>();
  const value = (key: Key): string | boolean | undefined => {
    const envName = flags.find((f) => f[0] === key)![1];
    return given[key] ?? (env[envName] !== undefined && env[envName] !== '' ? env[envName] : undefined);
  };
  const problems: string[] = [];
  const text = (key: Key, required: boolean): string => {
    const v = value(key);
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (required) problems.push(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is required`);
    return '';
  };
  const int = (key: Key, def: number, min: number, max: number): number => {
    const v = value(key);
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) problems.push(`${key} must be an integer from ${min} to ${max}`);
    return n;
  };
  const url = text('url', true).replace(/\/+$/, '');
  if (url && !/^https?:\/\/[^/\s]+/.test(url)) problems.push('--url must be an http:// or https:// URL');
  const serverId = text('server', true).toLowerCase();
  if (serverId && !isUuid(serverId)) problems.push('--server must be the server id (a UUID)');
  const token = text('token', true);
  const logs = text('logs', true);
  const offsetText = text('utcOffset', false);
  const utcOffsetMinutes = offsetText === '' ? null : parseUtcOffset(offsetText);
  if (utcOffsetMinutes === undefined) problems.push('--utc-offset must be +HH:MM or -HH:MM');
  const once = value('once');
  const stateGiven = text('state', false);
  const rcon = rconOptions(
    text('rconPort', false),
    text('rconHost', false),
    text('rconPasswordFile', false),
    env.AGENT_RCON_PASSWORD,
    problems,
  );
  const options: AgentOptions = {
    url,
    serverId,
    token,
    logs,
    files: text('files', false) || undefined,
    state: stateGiven || defaultStateFile(env, serverId, logs),
    legacyState: stateGiven ? undefined : join(logs, `.gameservice-agent-${serverId}.json`),
    utcOffsetMinutes: utcOffsetMinutes ?? null,
    once: once === true || once === 'true' || once === '1',
    batchMax: int('batchMax', agentDefaults.batchMax, 1, 1000),
    batchIntervalMs: int('batchIntervalMs', agentDefaults.batchIntervalMs, 1, 3_600_000),
    pollMs: int('pollMs', agentDefaults.pollMs, 1, 3_600_000),
    retryBaseMs: int('retryBaseMs', agentDefaults.retryBaseMs, 1, 3_600_000),
    retryMaxMs: int('retryMaxMs', agentDefaults.retryMaxMs, 1, 3_600_000),
    filesIntervalMs: int('filesIntervalMs', agentDefaults.filesIntervalMs, 1000, 86_400_000),
    rcon,
    restartCommand: text('restartCommand', false) || undefined,
    requestTimeoutMs: agentDefaults.requestTimeoutMs,
    stopGraceMs: agentDefaults.stopGraceMs,
    log,
  };
  if (problems.length > 0) throw new AgentOptionsError(problems.join('\n'));
  return options;
}

/**
 * The state file when --state is not given: in this user's state folder (XDG_STATE_HOME, else
 * ~/.local/state; %LOCALAPPDATA% on Windows; ~/Library/Application Support on macOS), never in the
 * logs folder, which may be a copy, a read-only mount or a project's fixtures. Named by the server
 * and the logs folder, so two folders fed as one server never share offsets of files named alike.
 */
export function defaultStateFile(
  env: Record<string, string | undefined>,
  serverId: string,
  logs: string,
  platform: NodeJS.Platform = process.platform,
): string {
  const home = env.HOME || env.USERPROFILE || homedir();
  const base =
    platform === 'win32'
      ? env.LOCALAPPDATA || join(home, 'AppData', 'Local')
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : env.XDG_STATE_HOME || join(home, '.local', 'state');
  const folder = createHash('sha256').update(resolve(logs)).digest('hex').slice(0, 12);
  return join(base, 'gameservice-agent', `${serverId}-${folder}.json`);
}

/**
 * RCon's settings: all or nothing. The password comes from a file (its trailing line end is not part
 * of it) or the environment, never from a flag: a flag's value is in every user's process list.
 */
function rconOptions(
  port: string,
  host: string,
  passwordFile: string,
  envPassword: string | undefined,
  problems: string[],
): AgentOptions['rcon'] {
  if (!port) {
    if (passwordFile || host) problems.push('--rcon-port is required with the other RCon settings');
    return undefined;
  }
  const portNumber = Number(port);
  if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) problems.push('--rcon-port must be a port number (1-65535)');
  let password = envPassword ?? '';
  if (passwordFile) {
    try {
      password = readFileSync(passwordFile, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      problems.push(
        `--rcon-password-file ${passwordFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
  }
  if (password === '' && !problems.some((p) => p.startsWith('--rcon-password-file')))
    problems.push('RCon needs its password: --rcon-password-file <file> or the AGENT_RCON_PASSWORD variable');
  // BattlEye reads the password as ASCII, at most 32 characters (RConPassword in BEServer_x64.cfg).
  else if (password.length > 64 || /[^\x21-\x7e]/.test(password))
    problems.push('the RCon password must be printable ASCII without spaces, as RConPassword in BEServer_x64.cfg');
  return { host: host || '127.0.0.1', port: portNumber, password };
}
