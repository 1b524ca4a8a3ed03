// Server list and server status as the Data API shows them.
import type { Deps } from '../deps.ts';
import { listServerRecords } from '../servers/server.repo.ts';
import type { ServerRecord } from '../servers/server.repo.ts';
import { isOnline, serverRecord } from '../servers/server.ts';

export const serverSummary = (r: ServerRecord, nowMs: number) => ({
  id: r.id,
  name: r.name,
  map: r.map,
  gameVersion: r.gameVersion,
  online: isOnline(r, nowMs),
  lastSeenAt: r.lastSeenAt,
});

export const serverStatus = (r: ServerRecord, nowMs: number) => ({
  ...serverSummary(r, nowMs),
  players: r.players,
  fps: r.fps,
  uptimeSeconds: r.uptimeSeconds,
  metricsAt: r.metricsAt,
});

export async function accountServers(deps: Deps, accountId: string) {
  const now = deps.clock.now();
  return (await listServerRecords(deps.db, accountId)).map((r) => serverSummary(r, now));
}

/** The status of a live server of the account, or undefined (unknown, revoked or not its own). */
export async function ownedServerStatus(deps: Deps, accountId: string, serverId: string) {
  const record = await serverRecord(deps, serverId);
  if (!record || record.revoked || record.accountId !== accountId) return undefined;
  return serverStatus(record, deps.clock.now());
}
