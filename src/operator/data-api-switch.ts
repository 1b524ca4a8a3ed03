// The operator's runtime Data API switch. Every process keeps the value in memory (the Data API
// checks it on each request); a change is stored in Redis and published, so all processes follow
// at once, and a process that starts later reads the stored value. Until the first change, the
// value comes from DATA_API_ENABLED.
import type { Deps } from '../deps.ts';
import { dataApiSwitchKey } from '../store/keys.ts';

const channelOf = (deps: Deps) => `${deps.config.redisPrefix}${dataApiSwitchKey}`;

export async function setDataApiEnabled(deps: Deps, enabled: boolean): Promise<void> {
  const value = enabled ? '1' : '0';
  await deps.redis.set(dataApiSwitchKey, value);
  deps.runtime.dataApiEnabled = enabled;
  await deps.redis.publish(channelOf(deps), value);
}

export const dataApiSwitchChannel = channelOf;

/** A change published by any process (this one included). */
export function onDataApiSwitch(deps: Deps, value: string): void {
  deps.runtime.dataApiEnabled = value === '1';
}

/** Reads the stored switch, for a process that starts after a change. */
export async function loadDataApiSwitch(deps: Deps): Promise<void> {
  const stored = await deps.redis.get(dataApiSwitchKey);
  if (stored !== null) deps.runtime.dataApiEnabled = stored === '1';
}
