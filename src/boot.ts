// Shared start-up of every entry point: configuration, database, migrations, connections.
import process from 'node:process';
import { ConfigError, loadConfig } from './config.ts';
import type { Config } from './config.ts';
import { connectDeps, createDeps } from './deps.ts';
import type { Deps } from './deps.ts';
import { createLog } from './log.ts';
import { ensureDatabase, migrate } from './store/migrate.ts';

/** Loads the configuration (from the process's environment, unless given another) or exits with one line per bad variable. */
export function configOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}

/** Creates the database if it is missing and applies the migrations not yet applied. */
export async function prepareDatabase(config: Config): Promise<void> {
  await ensureDatabase(config.databaseUrl);
  await migrate(config.databaseUrl, config.databaseSchema, createLog(config.logLevel));
}

/** Connects the stores; `migrated`: the database was prepared already (a web process its primary forked). */
export async function boot(config: Config, { migrated = false } = {}): Promise<Deps> {
  const log = createLog(config.logLevel);
  if (!migrated) await prepareDatabase(config);
  const deps = createDeps(config, { log });
  await connectDeps(deps);
  return deps;
}
