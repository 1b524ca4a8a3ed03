// Run as its own process by client-recovery.test.ts: logs in, runs a command, closes everything and
// ends without process.exit, so the process only ends if no timer or socket is left.
import { RconClient } from '../../../src/agent/rcon/client.ts';
import { FakeBattlEye } from '../../helpers/fake-battleye.ts';

const quiet = () => undefined;
const fake = await FakeBattlEye.start({ password: 'p' });
const client = new RconClient({
  host: fake.host,
  port: fake.port,
  password: 'p',
  log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
});
const login = new Promise<void>((resolve) => client.on('login', resolve));
client.start();
await login;
const reply = await client.command('echo pong');
await client.close();
await fake.close();
process.stdout.write(`closed after: ${reply}\n`);
