// Publishing on the service's channels (cache drops, the Data API switch, agent wake-ups): the
// channel is the name under the key prefix, and one process's messages on a channel arrive in
// the order it sent them, on one Redis or on a cluster (src/store/publish.lua).
import type { Core } from '../core.ts';

/** The channel of a name: under the key prefix, so services sharing a Redis do not hear each other. */
export const channelOf = (deps: Pick<Core, 'config'>, name: string) => `${deps.config.redisPrefix}${name}`;

export async function publish(deps: Pick<Core, 'config' | 'redis'>, name: string, message: string): Promise<void> {
  await deps.redis.publishInOrder(name, channelOf(deps, name), message);
}
