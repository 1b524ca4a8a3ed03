// What this process knows the players table holds of each player, so ingestion leaves a row alone
// that already says as much (src/ingest/ingest.repo.ts, upsertPlayers). A fleet keeps ~150,000
// players here; each is held as one text, not as an object with boxed timestamps: every full
// collection of the heap marks what is held, and four objects a player were most of its work.
import { LRUCache } from 'lru-cache';
import { flatText } from '../store/flat-text.ts';

/** What is known to be stored of a player at least: the name, a first seen no later, a last seen no earlier. */
export interface StoredPlayer { name: string; firstMs: number; lastMs: number }

type Held = [name: string, firstMs: number, lastMs: number];

export class StoredPlayers {
  readonly #players = new LRUCache<string, string>({ max: 200_000, ttl: 60_000 });

  get(platformId: string): StoredPlayer | undefined {
    const held = this.#players.get(platformId);
    if (held === undefined) return undefined;
    const [name, firstMs, lastMs] = JSON.parse(held) as Held;
    return { name, firstMs, lastMs };
  }

  set(platformId: string, { name, firstMs, lastMs }: StoredPlayer): void {
    this.#players.set(platformId, flatText(JSON.stringify([name, firstMs, lastMs] satisfies Held)));
  }

  /** The rows an ingest call stored, as it returns them: a JSON array of [platformId, name, firstMs, lastMs]. */
  setAll(json: string): void {
    for (const [id, ...held] of JSON.parse(json) as [string, ...Held][]) this.#players.set(id, flatText(JSON.stringify(held)));
  }
}
