// The password hash's cost: production's strength by default and always in production; a lower one
// (the tests') only where set; a check reads the cost from the stored hash, and the decoy checked
// for an unknown user costs what a real hash does.
import test from 'ava';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { decoyHash, hashPassword, verifyPassword } from '../../src/auth/password.ts';

const production = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-at-least-32-chars' };
const costOf = (hash: string) => Number(hash.split('$')[1]);

test('production hashes at 16384 unless set higher, and refuses anything lower', (t) => {
  t.is(loadConfig(production).passwordScryptN, 16384);
  t.is(loadConfig({ ...production, PASSWORD_SCRYPT_N: '32768' }).passwordScryptN, 32768);
  for (const low of ['1024', '8192']) {
    t.throws(() => loadConfig({ ...production, PASSWORD_SCRYPT_N: low }), { instanceOf: ConfigError, message: /PASSWORD_SCRYPT_N.*16384/ });
  }
  t.is(loadConfig({}).passwordScryptN, 16384, 'the default outside production too');
  t.is(loadConfig({ NODE_ENV: 'test', PASSWORD_SCRYPT_N: '1024' }).passwordScryptN, 1024);
  t.throws(
    () => loadConfig({ PASSWORD_SCRYPT_N: '1000' }),
    { instanceOf: ConfigError, message: /PASSWORD_SCRYPT_N/ },
    'not a power of two',
  );
});

test('a hash carries its cost; a check reads it from there, whatever the configured one', async (t) => {
  const strong = await hashPassword('correct horse', 16384);
  const cheap = await hashPassword('correct horse', 1024);
  t.regex(strong, /^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
  t.is(costOf(cheap), 1024);
  for (const hash of [strong, cheap]) {
    t.true(await verifyPassword('correct horse', hash));
    t.false(await verifyPassword('wrong horse', hash));
  }
});

test("the unknown user's decoy costs what the configured hash costs", async (t) => {
  t.is(costOf(await decoyHash(16384)), 16384);
  t.is(costOf(await decoyHash(1024)), 1024);
  t.is(await decoyHash(1024), await decoyHash(1024), 'made once per cost');
});
