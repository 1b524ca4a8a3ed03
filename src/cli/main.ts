// Operator CLI (npm run cli -- <command>): accounts, servers, API keys and Redis rebuilds,
// for what an operator needs before (or besides) the controller API.
import process from 'node:process';
import { Command, InvalidArgumentError, Option } from 'commander';
import { boot, configOrExit } from '../boot.ts';
import { closeDeps } from '../deps.ts';
import type { Deps } from '../deps.ts';
import { insertAccount } from '../accounts/account.repo.ts';
import { listApiKeys } from '../accounts/api-key.repo.ts';
import { mintApiKey, revokeApiKey } from '../accounts/api-key.ts';
import type { ApiKeyTier } from '../accounts/api-key.ts';
import { registerServer, revokeServer, rotateIngestToken } from '../servers/server.ts';
import { rebuildDerivedState } from '../derived/rebuild.ts';
import { isUuid } from '../http/uuid.ts';

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
account.command('create').argument('<name>', 'community name', text(100)).action(withDeps(async (deps, name: string) => {
  print(`account ${(await insertAccount(deps.db, name)).id}`);
}));

const server = program.command('server').description('game servers');
server.command('add').argument('<accountId>', 'account', uuid).argument('<name>', 'server name', text(100))
  .option('--ban-file <path>', "the game server's ban file").option('--priority-file <path>', "the game server's priority file")
  .action(withDeps(async (deps, accountId: string, name: string, opts: { banFile?: string; priorityFile?: string }) => {
    const { server: s, ingestToken } = await registerServer(deps, accountId, { name, banFilePath: opts.banFile, priorityFilePath: opts.priorityFile });
    print(`server ${s.id}`);
    print(`ingest token (shown once): ${ingestToken}`);
  }));
server.command('revoke').argument('<accountId>', 'account', uuid).argument('<serverId>', 'server', uuid)
  .action(withDeps(async (deps, accountId: string, serverId: string) => {
    const done = await revokeServer(deps, accountId, serverId);
    print(done ? `server ${serverId} revoked` : 'no such server in that account');
    return done;
  }));
server.command('rotate-token').argument('<accountId>', 'account', uuid).argument('<serverId>', 'server', uuid)
  .action(withDeps(async (deps, accountId: string, serverId: string) => {
    const token = await rotateIngestToken(deps, accountId, serverId);
    print(token ? `ingest token (shown once): ${token}` : 'no live server of that id in that account');
    return token !== undefined;
  }));

const key = program.command('key').description('Data API keys');
key.command('create').argument('<accountId>', 'account', uuid).option('--name <name>', 'label', text(100), 'cli')
  .addOption(new Option('--tier <tier>', 'rate and page cap').choices(['standard', 'partner']).default('standard'))
  .action(withDeps(async (deps, accountId: string, opts: { name: string; tier: ApiKeyTier }) => {
    const { record, key: raw } = await mintApiKey(deps, accountId, opts.name, opts.tier);
    print(`key ${record.id} (${record.tier})`);
    print(`API key (shown once): ${raw}`);
  }));
key.command('revoke').argument('<accountId>', 'account', uuid).argument('<keyId>', 'key id', uuid)
  .action(withDeps(async (deps, accountId: string, keyId: string) => {
    const done = await revokeApiKey(deps, accountId, keyId);
    print(done ? `key ${keyId} revoked` : 'no such key in that account');
    return done;
  }));
key.command('list').argument('<accountId>', 'account', uuid).action(withDeps(async (deps, accountId: string) => {
  for (const k of await listApiKeys(deps.db, accountId)) print(`${k.id}  ${k.tier.padEnd(8)}  ${k.revokedAt ? 'revoked' : 'active '}  ${k.name}`);
}));

program.command('rebuild').description('rebuild Redis-derived state from PostgreSQL').action(withDeps(async (deps) => {
  const { servers, players } = await rebuildDerivedState(deps);
  print(`rebuilt ${servers} servers, ${players} player totals`);
}));

program.command('migrate').description('apply database migrations').action(withDeps(async () => print('migrations applied')));

await program.parseAsync();
