// Operator CLI (npm run cli -- <command>): accounts, servers, API keys and Redis rebuilds,
// for what an operator needs before (or besides) the controller API.
import process from 'node:process';
import { Command, InvalidArgumentError, Option } from 'commander';
import { boot, configOrExit } from '../boot.ts';
import { closeDeps } from '../deps.ts';
import type { Deps } from '../deps.ts';
import { insertAccount, listAccounts } from '../accounts/account.repo.ts';
import { listApiKeys } from '../accounts/api-key.repo.ts';
import { mintApiKey, revokeApiKey } from '../accounts/api-key.ts';
import type { ApiKeyTier } from '../accounts/api-key.repo.ts';
import { isOnline, registerServer, revokeServer, rotateIngestToken } from '../servers/server.ts';
import { listManagedServers } from '../servers/server.repo.ts';
import { checkedFilePaths } from '../servers/file-paths.ts';
import { ApiError } from '../http/errors.ts';
import { rebuildDerivedState } from '../derived/rebuild.ts';
import { isUuid } from '../http/uuid.ts';
import { callChatAction } from '../chat/client.ts';
import { IdentityLinkError, mergeIntoSteam64 } from '../identities/merge.ts';
import { mirrorToFile } from '../trust/mirror-file.ts';
import { MirrorError } from '../trust/mirror.ts';
import { typedParams } from './chat-params.ts';
import { unreachableLine } from './unreachable.ts';

const uuid = (value: string) => {
  if (!isUuid(value)) throw new InvalidArgumentError('not a UUID');
  return value.toLowerCase();
};
const text = (max: number) => (value: string) => {
  if (value.trim() === '' || value.length > max) throw new InvalidArgumentError(`must be 1 to ${max} characters`);
  return value.trim();
};

const print = (line: string) => process.stdout.write(`${line}\n`);

/** Runs a command with booted dependencies; a false result is a failure (exit 1). */
function withDeps<A extends unknown[]>(work: (deps: Deps, ...args: A) => Promise<boolean | void>) {
  return async (...args: A) => {
    const deps = await boot(configOrExit());
    try {
      if ((await work(deps, ...args)) === false) process.exitCode = 1;
    } catch (err) {
      // A referenced account or server that does not exist: say so instead of a stack trace.
      if ((err as { code?: string }).code !== '23503') throw err;
      print('error: no such account');
      process.exitCode = 1;
    } finally {
      await closeDeps(deps);
    }
  };
}

const program = new Command().name('cli').description('Operator commands').showHelpAfterError();

const account = program.command('account').description('communities');
account
  .command('create')
  .argument('<name>', 'community name', text(100))
  .action(
    withDeps(async (deps, name: string) => {
      print(`account ${(await insertAccount(deps.db, name)).id}`);
    }),
  );
account
  .command('list')
  .description('every account: id, live servers, name')
  .action(
    withDeps(async (deps) => {
      for (const a of await listAccounts(deps.db))
        print(`${a.id}  ${String(a.servers).padStart(3)} servers  ${a.name}${a.isOperator ? '  (operator)' : ''}`);
    }),
  );

const server = program.command('server').description('game servers');
server
  .command('add')
  .argument('<accountId>', 'account', uuid)
  .argument('<name>', 'server name', text(100))
  .option('--ban-file <path>', "the game server's ban file, inside GAME_FILES_DIR")
  .option('--priority-file <path>', "the game server's priority file, inside GAME_FILES_DIR")
  .action(
    withDeps(async (deps, accountId: string, name: string, opts: { banFile?: string; priorityFile?: string }) => {
      // The operator's own command: the same rules of files on the service's host as the API's.
      const paths = await checkedFilePaths(deps, true, { banFilePath: opts.banFile, priorityFilePath: opts.priorityFile }).catch(
        (err: unknown) => {
          if (err instanceof ApiError) print(`error: ${err.message}`);
          else throw err;
        },
      );
      if (!paths) return false;
      const { server: s, ingestToken } = await registerServer(deps, accountId, { name, ...paths });
      print(`server ${s.id}`);
      print(`ingest token (shown once): ${ingestToken}`);
    }),
  );
server
  .command('list')
  .argument('<accountId>', 'account', uuid)
  .description("the account's live servers: id, online, last seen, name")
  .action(
    withDeps(async (deps, accountId: string) => {
      const now = deps.clock.now();
      for (const s of await listManagedServers(deps.db, accountId)) {
        print(`${s.id}  ${isOnline(s, now) ? 'online ' : 'offline'}  ${s.lastSeenAt ?? 'never seen'.padEnd(27)}  ${s.name}`);
      }
    }),
  );
server
  .command('revoke')
  .argument('<accountId>', 'account', uuid)
  .argument('<serverId>', 'server', uuid)
  .action(
    withDeps(async (deps, accountId: string, serverId: string) => {
      const done = await revokeServer(deps, accountId, serverId);
      print(done ? `server ${serverId} revoked` : 'no such server in that account');
      return done;
    }),
  );
server
  .command('rotate-token')
  .argument('<accountId>', 'account', uuid)
  .argument('<serverId>', 'server', uuid)
  .action(
    withDeps(async (deps, accountId: string, serverId: string) => {
      const token = await rotateIngestToken(deps, accountId, serverId);
      print(token ? `ingest token (shown once): ${token}` : 'no live server of that id in that account');
      return token !== undefined;
    }),
  );

const key = program.command('key').description('Data API keys');
key
  .command('create')
  .argument('<accountId>', 'account', uuid)
  .option('--name <name>', 'label', text(100), 'cli')
  .addOption(new Option('--tier <tier>', 'rate and page cap').choices(['standard', 'partner']).default('standard'))
  .action(
    withDeps(async (deps, accountId: string, opts: { name: string; tier: ApiKeyTier }) => {
      const { record, key: raw } = await mintApiKey(deps, accountId, opts.name, opts.tier);
      print(`key ${record.id} (${record.tier})`);
      print(`API key (shown once): ${raw}`);
    }),
  );
key
  .command('revoke')
  .argument('<accountId>', 'account', uuid)
  .argument('<keyId>', 'key id', uuid)
  .action(
    withDeps(async (deps, accountId: string, keyId: string) => {
      const done = await revokeApiKey(deps, accountId, keyId);
      print(done ? `key ${keyId} revoked` : 'no such key in that account');
      return done;
    }),
  );
key
  .command('list')
  .argument('<accountId>', 'account', uuid)
  .action(
    withDeps(async (deps, accountId: string) => {
      for (const k of await listApiKeys(deps.db, accountId))
        print(`${k.id}  ${k.tier.padEnd(8)}  ${k.revokedAt ? 'revoked' : 'active '}  ${k.name}`);
    }),
  );

const playerCommand = program.command('player').description('player identities');
playerCommand
  .command('link')
  .description('merge a player known by a DayZ ID or console id into its Steam64')
  .argument('<id>', 'the DayZ ID or console id')
  .argument('<steam64>', 'the Steam64 it belongs to')
  .action(
    withDeps(async (deps, id: string, steam64: string) => {
      try {
        const { merged, servers } = await mergeIntoSteam64(deps, id, steam64, { type: 'system', name: 'cli' });
        print(merged ? `merged ${id} into ${steam64} on ${servers.length} server(s)` : `nothing to merge: ${id} has no history of its own`);
      } catch (err) {
        if (!(err instanceof IdentityLinkError)) throw err;
        print(`error: ${err.message}`);
        return false;
      }
    }),
  );

/** key=value, kept as text: the chat command types each value by its action's schema (chat-params.ts). */
const param = (pair: string, all: Record<string, string>) => {
  const at = pair.indexOf('=');
  if (at < 1) throw new InvalidArgumentError('expected key=value');
  return { ...all, [pair.slice(0, at)]: pair.slice(at + 1) };
};

/** Runs a call to the service; one that does not reach it is a line saying so (exit 1), not fetch's stack. */
async function callingService(url: string, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (err) {
    const line = unreachableLine(err, url);
    if (line === undefined) throw err;
    print(`error: ${line}`);
    process.exitCode = 1;
  }
}

program
  .command('chat')
  .description('call the chat-bot action endpoint as a bot does (the reference client: src/chat/client.ts)')
  .argument(
    '<action>',
    'server.status, players.list, trust.lookup, ban.create, ban.revoke, queue.add, queue.remove, server.restart or link',
  )
  .requiredOption('--user <chatUserId>', 'the chat user the bot acts for')
  .option('--server <serverId>', 'the server the action is about', uuid)
  .option('--param <key=value>', "an action parameter (repeat it); text unless the action's schema makes it a number", param, {})
  .addOption(new Option('--url <url>', "the service's base URL").env('CHAT_URL').default('http://127.0.0.1:3000'))
  .addOption(
    new Option('--bot <botId>', "the community's chat bot (Chat page of the dashboard); none: the operator's bot").env('CHAT_BOT_ID'),
  )
  .addOption(
    new Option('--secret <secret>', "the bot's secret, or CHAT_SIGNING_SECRET's value for the operator's bot (unsigned without it)").env(
      'CHAT_BOT_SECRET',
    ),
  )
  .action(
    (action: string, opts: { user: string; server?: string; param: Record<string, string>; url: string; bot?: string; secret?: string }) =>
      callingService(opts.url, async () => {
        const answer = await callChatAction({
          url: opts.url,
          secret: opts.secret,
          botId: opts.bot,
          action,
          chatUserId: opts.user,
          serverId: opts.server,
          params: typedParams(action, opts.param),
        });
        print(answer.body.result?.text ?? `error ${answer.status}: ${answer.body.message ?? JSON.stringify(answer.body)}`);
        if (answer.status !== 200) process.exitCode = 1;
      }),
  );

program
  .command('rebuild')
  .description('rebuild Redis-derived state from PostgreSQL')
  .action(
    withDeps(async (deps) => {
      const { servers, players } = await rebuildDerivedState(deps);
      print(`rebuilt ${servers} servers, ${players} player totals`);
    }),
  );

const trust = program.command('trust').description('trust network');
trust
  .command('mirror')
  .description('follow a trust export feed into a local mirror, verifying every page (the reference partner client)')
  .requiredOption('--url <url>', 'service root, e.g. https://trust.example.org')
  .requiredOption('--key <key>', 'partner key (svcp_...)')
  .requiredOption('--out <file>', 'mirror file; an existing one is resumed')
  .option('--key-id <id>', 'partner key id the proofs must name (learnt from the first page otherwise)', uuid)
  .option('--page-size <n>', 'rows per page', (v) => {
    if (!/^[0-9]{1,4}$/.test(v) || Number(v) < 1 || Number(v) > 1000) throw new InvalidArgumentError('1 to 1000');
    return Number(v);
  })
  .action((opts: { url: string; key: string; out: string; keyId?: string; pageSize?: number }) =>
    callingService(opts.url, async () => {
      try {
        const result = await mirrorToFile(opts.out, { url: opts.url, key: opts.key, keyId: opts.keyId, pageSize: opts.pageSize });
        print(`${result.pages} pages, ${result.rows} rows read; ${result.bans} active bans; synced through ${result.syncedThrough}`);
      } catch (err) {
        if (!(err instanceof MirrorError)) throw err;
        print(`error: ${err.message}`);
        process.exitCode = 1;
      }
    }),
  );

program
  .command('migrate')
  .description('apply database migrations')
  .action(withDeps(async () => print('migrations applied')));

await program.parseAsync();
