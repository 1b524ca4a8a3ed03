// Server list and server status as the Data API shows them.
import type { Core } from '../core.ts';
import type { ServerStatus, ServerSummary } from '../http/schema-types.ts';
import { listServerRecords } from '../servers/server.repo.ts';
import type { ServerRecord } from '../servers/server.repo.ts';
import { isOnline, serverRecord } from '../servers/server.ts';
import type { ServerDeps } from '../servers/server.ts';
import { readView } from '../store/read-view.ts';

const serverSummary = (r: ServerRecord, online: boolean): ServerSummary => ({
  id: r.id,
  name: r.name,
  map: r.map,
  gameVersion: r.gameVersion,
  online,
  lastSeenAt: r.lastSeenAt,
});

const serverStatus = (r: ServerRecord, online: boolean): ServerStatus => ({
  ...serverSummary(r, online),
  players: r.players,
  fps: r.fps,
  uptimeSeconds: r.uptimeSeconds,
  metricsAt: r.metricsAt,
});

/** The account's live servers, from the read replica when there is one. */
export async function accountServers(deps: Core, accountId: string) {
  const records = await readView(deps, null, (db) => listServerRecords(db, accountId));
  const now = deps.clock.now();
  return records.map((r) => serverSummary(r, isOnline(r, now)));
}

/**
 * The two possible bodies of a status record (only `online` depends on the time of the request),
 * rendered once per record object: the hot status read then parses and serialises nothing.
 */
const renderedStatus = new WeakMap<ServerRecord, { offline: string; online: string }>();

/** The status of a live server of the account as JSON text, or undefined (unknown, revoked or not its own). */
export async function ownedServerStatusBody(deps: ServerDeps, accountId: string, serverId: string): Promise<string | undefined> {
  const record = await serverRecord(deps, serverId);
  if (!record || record.revoked || record.accountId !== accountId) return undefined;
  let bodies = renderedStatus.get(record);
  if (!bodies) {
    bodies = { offline: JSON.stringify(serverStatus(record, false)), online: JSON.stringify(serverStatus(record, true)) };
    renderedStatus.set(record, bodies);
  }
  return isOnline(record, deps.clock.now()) ? bodies.online : bodies.offline;
}
