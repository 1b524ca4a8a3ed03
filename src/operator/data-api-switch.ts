// The operator's runtime Data API switch. Every process keeps the value in memory (the Data API
// checks it on each request); a change is stored in Redis and published, so all processes follow
// at once, and a process that starts later reads the stored value. Until the first change, the
// value comes from DATA_API_ENABLED.
import type { Config } from '../config.ts';
import type { Core } from '../core.ts';
import { dataApiSwitchKey } from '../store/keys.ts';
import { channelOf, publish } from '../store/publish.ts';

/** What the process knows of the switch. */
export interface DataApiRuntime {
  runtime: { dataApiEnabled: boolean };
}

export const dataApiRuntime = (config: Pick<Config, 'dataApiEnabled'>): DataApiRuntime['runtime'] => ({
  dataApiEnabled: config.dataApiEnabled,
});

export async function setDataApiEnabled(deps: Core & DataApiRuntime, enabled: boolean): Promise<void> {
  const value = enabled ? '1' : '0';
  await deps.redis.set(dataApiSwitchKey, value);
  deps.runtime.dataApiEnabled = enabled;
  await publish(deps, dataApiSwitchKey, value);
}

export const dataApiSwitchChannel = (deps: Pick<Core, 'config'>) => channelOf(deps, dataApiSwitchKey);

/** A change published by any process (this one included). */
export function onDataApiSwitch(deps: Core & DataApiRuntime, value: string): void {
  deps.runtime.dataApiEnabled = value === '1';
}

/** Reads the stored switch, for a process that starts after a change. */
export async function loadDataApiSwitch(deps: Core & DataApiRuntime): Promise<void> {
  const stored = await deps.redis.get(dataApiSwitchKey);
  if (stored !== null) deps.runtime.dataApiEnabled = stored === '1';
}
