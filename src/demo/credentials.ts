// The demo's raw credentials (its API key, each demo server's ingest token, its partner key, the
// dashboard password of its admin, src/demo/admin.ts), kept in a local file
// beside the project so a re-run of `npm run demo` shows the same ones instead of minting a key and
// rotating tokens every time. The service itself stores only their hashes; this file is the
// newcomer's own copy (git-ignored, readable by its owner only). A credential that no longer works
// (revoked, rotated, another database) is replaced.
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import type { Deps } from '../deps.ts';
import { mintApiKey, resolveApiKey } from '../accounts/api-key.ts';
import { newSecret, secretHash } from '../accounts/secrets.ts';
import { verifyIngestToken } from '../ingest/ingest-token.ts';
import { partnerKeyPrefix } from '../trust/partner-keys.route.ts';
import { activePartnerKeyByHash, insertPartnerKey } from '../trust/partner-key.repo.ts';
import { rotateIngestToken } from '../servers/server.ts';
import { projectPath } from '../project-root.ts';

/** Beside the project; tests pass a file of their own. */
export const defaultCredentialsFile = projectPath('.demo-credentials.json');

interface Saved {
  apiKey?: string;
  partnerKey?: string;
  ingestTokens?: Record<string, string>;
  adminPassword?: string;
}

type SavedByStore = Record<string, Saved>;

// Keyed by a hash: the database URL may carry its password, which has no place in this file.
const storeOf = (deps: Deps) =>
  createHash('sha256').update(`${deps.config.databaseUrl}#${deps.config.databaseSchema}`).digest('hex').slice(0, 32);

function readSaved(file: string): SavedByStore {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SavedByStore;
  } catch {
    return {}; // no file yet, or an unreadable one: everything is made anew
  }
}

/** The demo account's API key, its servers' ingest tokens and a partner key: the saved ones while they work, else new ones. */
export async function demoCredentials(
  deps: Deps,
  accountId: string,
  servers: { id: string; ingestToken?: string }[],
  file = defaultCredentialsFile,
): Promise<{ apiKey: string; ingestTokens: Record<string, string>; partnerKey: string }> {
  const all = readSaved(file);
  const saved = all[storeOf(deps)] ?? {};
  let apiKey = saved.apiKey;
  if (!apiKey || (await resolveApiKey(deps, apiKey))?.accountId !== accountId)
    apiKey = (await mintApiKey(deps, accountId, 'demo', 'standard')).key;
  const ingestTokens: Record<string, string> = {};
  for (const server of servers) {
    const known = server.ingestToken ?? saved.ingestTokens?.[server.id];
    ingestTokens[server.id] =
      known && (await verifyIngestToken(deps, server.id, known)) ? known : (await rotateIngestToken(deps, accountId, server.id))!;
  }
  let partnerKey = saved.partnerKey;
  if (!partnerKey || !(await activePartnerKeyByHash(deps.db, secretHash(partnerKey)))) {
    partnerKey = newSecret(partnerKeyPrefix);
    await insertPartnerKey(deps.db, 'demo partner', 'basic', secretHash(partnerKey), new Date(deps.clock.now()).toISOString());
  }
  all[storeOf(deps)] = { ...saved, apiKey, ingestTokens, partnerKey };
  writeSaved(file, all);
  return { apiKey, ingestTokens, partnerKey };
}

function writeSaved(file: string, all: SavedByStore): void {
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The demo admin's password as saved for this store, if any. */
export const savedAdminPassword = (deps: Deps, file = defaultCredentialsFile): string | undefined =>
  readSaved(file)[storeOf(deps)]?.adminPassword;

export function saveAdminPassword(deps: Deps, adminPassword: string, file = defaultCredentialsFile): void {
  const all = readSaved(file);
  all[storeOf(deps)] = { ...all[storeOf(deps)], adminPassword };
  writeSaved(file, all);
}
