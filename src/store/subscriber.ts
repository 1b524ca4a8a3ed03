// One Redis subscriber connection per process for every channel the process follows (the Data API
// switch, cache invalidations, agent wake-ups); returns a function that closes it.
import type { Core } from '../core.ts';
import { connectRedis } from './redis.ts';

export async function followChannels(
  deps: Pick<Core, 'redis' | 'log'>,
  handlers: Record<string, (message: string) => void>,
): Promise<() => void> {
  const subscriber = deps.redis.duplicate();
  await connectRedis(subscriber);
  subscriber.on('message', (channel: string, message: string) => {
    try {
      handlers[channel]?.(message);
    } catch (err) {
      deps.log.warn({ err, channel }, 'unreadable message on a followed channel');
    }
  });
  await subscriber.subscribe(...Object.keys(handlers));
  return () => subscriber.disconnect();
}
