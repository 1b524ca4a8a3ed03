// Forgets ingest event ids old enough that no agent will retry them.
import type { Deps } from '../deps.ts';
import { deleteEventIdsBefore } from '../ingest/ingest.repo.ts';

export const eventIdRetentionMs = 7 * 24 * 3600_000;

export const pruneIngestEventIds = (deps: Deps) => deleteEventIdsBefore(deps.db, new Date(deps.clock.now() - eventIdRetentionMs).toISOString());
