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

/** Reads the stored switch and follows its changes; returns a function that stops following. */
export async function followDataApiSwitch(deps: Deps): Promise<() => void> {
  const subscriber = deps.redis.duplicate();
  await subscriber.connect();
  subscriber.on('message', (_channel: string, value: string) => {
    deps.runtime.dataApiEnabled = value === '1';
  });
  await subscriber.subscribe(channelOf(deps));
  const stored = await deps.redis.get(dataApiSwitchKey);
  if (stored !== null) deps.runtime.dataApiEnabled = stored === '1';
  return () => subscriber.disconnect();
}
