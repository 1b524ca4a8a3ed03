// A batch's status events: which change the server's stored status, and the samples they make,
// for both ways of applying a batch.
import type { IngestEvent } from './events.ts';
import type { NewSample } from '../servers/metrics.repo.ts';

/** Every status of the batch is a sample of the dashboard's chart, also those the servers row skips. */
export const samplesOf = (events: IngestEvent[]): NewSample[] => events.filter((e) => e.type === 'server.status').map((s) => ({
  atMs: s.tsMs, online: s.online, players: s.players, fps: s.fps, uptimeSeconds: s.uptimeSeconds,
}));

/**
 * The batch's statuses to apply one by one in time order, as if each had come alone, so that a field
 * only an earlier status carried (map, gameVersion, metrics) is not lost to a newer one without it.
 * A status whose every field a later status of the batch overwrites would change nothing: left out.
 */
export function statusesToApply(events: IngestEvent[]): Extract<IngestEvent, { type: 'server.status' }>[] {
  const statuses = events.filter((e) => e.type === 'server.status');
  const needed: typeof statuses = [];
  const later = new Set<string>();
  for (let i = statuses.length - 1; i >= 0; i--) {
    const s = statuses[i]!;
    const fields = [s.map !== undefined && 'map', s.gameVersion !== undefined && 'gameVersion',
      (s.players !== undefined || s.fps !== undefined || s.uptimeSeconds !== undefined) && 'metrics'].filter((f) => f !== false);
    if (needed.length === 0 || fields.some((f) => !later.has(f))) needed.unshift(s);
    for (const f of fields) later.add(f);
  }
  return needed;
}
