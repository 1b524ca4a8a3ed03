// Checks a server's ingest token against its stored hash (in constant time). The hash is kept
// in-process for AUTH_CACHE_MS; rotation and revocation in this process drop it at once.
import type { Deps } from '../deps.ts';
import { sameHash, secretHash } from '../accounts/secrets.ts';
import { findIngestTokenHash } from '../servers/server.repo.ts';
import { ingestTokenPrefix } from '../servers/server.ts';
import { isUuid } from '../http/uuid.ts';

export async function verifyIngestToken(deps: Deps, serverId: string, token: string): Promise<boolean> {
  if (!isUuid(serverId) || !token.startsWith(ingestTokenPrefix) || token.length > 128) return false;
  let stored = deps.caches.ingestTokens.get(serverId);
  if (stored === undefined) {
    stored = (await findIngestTokenHash(deps.db, serverId)) ?? Buffer.alloc(0);
    deps.caches.ingestTokens.set(serverId, stored);
  }
  return sameHash(secretHash(token), stored);
}
