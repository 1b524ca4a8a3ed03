// Every way the service is started goes through bin/service, the one place its V8 flags are written
// (Node refuses --no-allocation-site-pretenuring in NODE_OPTIONS, so they must be on the command
// line): the Procfile's processes, `npm start`, `npm run demo`, Deno's start script, and the bench,
// which reads them from there. And the flags, the service's and the agent's, take effect.
import test from 'ava';
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { ExecutionContext } from 'ava';
import { agentNodeFlags, serviceNodeFlags } from '../../bench/v8-flags.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url);
const flags = ['--max-semi-space-size=32', '--no-allocation-site-pretenuring'];
const scripts = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts;
const procfile = Object.fromEntries(
  readFileSync(new URL('Procfile', root), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [name, ...command] = line.split(':');
      return [name!.trim(), command.join(':').trim()];
    }),
);

test('the Procfile, npm start, npm run demo and Deno start the service through bin/service', (t) => {
  t.deepEqual(procfile, { web: 'bin/service --role web', worker: 'bin/service --role worker' });
  t.is(scripts.start, 'bin/service');
  t.is(scripts.demo, 'bin/service --demo');
  t.is(scripts['start:deno'], 'bin/service --deno');
});

test('the bench reads the flags from bin/service', (t) => {
  t.deepEqual(serviceNodeFlags(), flags);
});

/** bin/service in a folder of its own with a built entry point, `node` and `npx` stubs that print their arguments. */
async function launch(t: ExecutionContext, args: string[]): Promise<string> {
  const dir = await tempDir(t, 'launcher-');
  await mkdir(join(dir, 'bin'));
  await mkdir(join(dir, 'dist', 'src'), { recursive: true });
  await mkdir(join(dir, 'stubs'));
  await copyFile(new URL('bin/service', root), join(dir, 'bin/service'));
  await writeFile(join(dir, 'dist/src/main.js'), '');
  for (const name of ['node', 'npx']) {
    await writeFile(join(dir, 'stubs', name), `#!/bin/sh\necho ${name} "$@"\n`);
    await chmod(join(dir, 'stubs', name), 0o755);
  }
  const { stdout } = await run(join(dir, 'bin/service'), args, {
    env: { ...process.env, PATH: `${join(dir, 'stubs')}:${process.env.PATH}` },
  });
  return stdout.trim().replaceAll(dir, '<root>');
}

test('bin/service runs the build under Node with the flags, and the sources under Deno with the same flags', async (t) => {
  t.is(await launch(t, ['--role', 'web']), `node ${flags.join(' ')} <root>/bin/../dist/src/main.js --role web`);
  t.is(
    await launch(t, ['--deno', '--demo']),
    `npx --yes deno@2.9.6 run --allow-all --v8-flags=${flags.join(',')} <root>/bin/../src/main.ts --demo`,
  );
});

const heapLimitMb = async (nodeFlags: string[]) =>
  Number((await run(process.execPath, [...nodeFlags, '-p', "require('node:v8').getHeapStatistics().heap_size_limit / 2 ** 20"])).stdout);

test("Node takes the service's flags, and the young generation grows", async (t) => {
  const { stdout } = await run(process.execPath, [...flags, '-p', 'JSON.stringify(process.execArgv)']);
  t.deepEqual((JSON.parse(stdout) as string[]).slice(0, flags.length), flags);
  // V8 reserves the semi-spaces within the heap's limit: a larger one lifts the limit.
  t.true((await heapLimitMb(flags)) > (await heapLimitMb([])));
});

test("the agent's flags cap its heap", async (t) => {
  t.deepEqual(agentNodeFlags(), ['--max-old-space-size=64', '--max-semi-space-size=4']);
  t.true((await heapLimitMb(agentNodeFlags())) < 100);
});
