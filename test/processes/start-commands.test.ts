// Every way the service is started gives V8 the same flags (docs/decisions.md): the Procfile's
// processes, `npm start`, `npm run demo`, Deno's start script, and the services the bench measures.
// The flags cannot live in NODE_OPTIONS (Node refuses --no-allocation-site-pretenuring there), so
// each command line carries them, and this keeps them from drifting apart.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { serviceNodeFlags } from '../../bench/service-env.ts';

const root = new URL('../../', import.meta.url);
const flags = ['--max-semi-space-size=32', '--no-allocation-site-pretenuring'];
const scripts = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts;
const procfile = Object.fromEntries(readFileSync(new URL('Procfile', root), 'utf8').trim().split('\n').map((line) => {
  const [name, ...command] = line.split(':');
  return [name!.trim(), command.join(':').trim()];
}));

test('the Procfile starts web and worker with the flags', (t) => {
  t.deepEqual(Object.keys(procfile).sort(), ['web', 'worker']);
  for (const [name, command] of Object.entries(procfile)) {
    t.regex(command, /^node .*dist\/main\.js --role (web|worker)$/, name);
    for (const flag of flags) t.true(command.split(' ').includes(flag), `${name}: ${flag}`);
  }
});

test('npm start and npm run demo pass the flags to node', (t) => {
  for (const name of ['start', 'demo']) {
    const words = scripts[name]!.split(' ');
    t.is(words[0], 'node', name);
    for (const flag of flags) t.true(words.indexOf(flag) > 0 && words.indexOf(flag) < words.indexOf('dist/main.js'), `${name}: ${flag}`);
  }
});

test("Deno's start script passes them as V8 flags", (t) => {
  const v8Flags = /--v8-flags=(\S+)/.exec(scripts['start:deno']!)?.[1]?.split(',');
  t.deepEqual(v8Flags, flags);
});

test('the bench measures the service with the same flags', (t) => {
  t.deepEqual(serviceNodeFlags, flags);
});
