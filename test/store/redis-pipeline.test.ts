// The service's ioredis runs patched (patches/ioredis+5.11.1.patch; docs/decisions.md): a pipeline
// answers `length` from its class, not from an accessor each instance defines on itself. The
// per-instance accessor gave every autopipelined write a hidden class of its own in V8's old space,
// which kept the write's pipeline, commands and replies alive through young-generation collections.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createRedis } from '../../src/store/redis.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

test('a pipeline has no accessor of its own, and its length counts its commands', (t) => {
  const redis = createRedis({ redisUrl, redisClusterNodes: undefined, redisPrefix: 'unused:' });
  const pipeline = redis.pipeline();
  t.is(Object.getOwnPropertyDescriptor(pipeline, 'length'), undefined);
  t.is(pipeline.length, 0);
  pipeline.get('a').get('b');
  t.is(pipeline.length, 2);
  redis.disconnect();
});

test('pipelines and autopipelined commands still answer in order', async (t) => {
  const redis = createRedis({ redisUrl, redisClusterNodes: undefined, redisPrefix: `t_${randomBytes(6).toString('hex')}:` });
  await redis.connect();
  try {
    const results = await redis.pipeline().set('k', '1').incr('k').get('k').exec();
    t.deepEqual(results, [
      [null, 'OK'],
      [null, 2],
      [null, '2'],
    ]);
    // Issued in one task: ioredis sends them as one autopipeline.
    t.deepEqual(await Promise.all([redis.incr('k'), redis.incr('k'), redis.get('k')]), [3, 4, '4']);
    await redis.del('k');
  } finally {
    redis.disconnect();
  }
});
