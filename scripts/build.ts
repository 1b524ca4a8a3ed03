// Builds what runs without TypeScript: `build [--if-stale] [web] [service] [agent]` (all three when
// none is named). --if-stale builds only what is missing or older than a source of it: npm ci
// (prepare), npm start, npm run demo, npm run cli, npm run agent and npm test run it so.
import process from 'node:process';
import { web } from '../web/build.ts';
import { agent } from './build-agent.ts';
import { service } from './build-service.ts';

const targets = { web, service, agent };
const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const named = args.filter((a) => a !== '--if-stale');
const unknown = named.filter((a) => !(a in targets));
if (unknown.length > 0) {
  process.stderr.write(`unknown build target ${unknown.join(', ')}: expected ${Object.keys(targets).join(', ')}\n`);
  process.exit(2);
}

for (const name of named.length > 0 ? named : Object.keys(targets)) {
  const target = targets[name as keyof typeof targets];
  const state = target.state();
  if (ifStale && state === 'fresh') continue;
  const started = Date.now();
  await target.build();
  const why = state === 'fresh' ? 'rebuilt on request' : `the build was ${state}`;
  process.stdout.write(`${target.name} built into ${target.output} in ${((Date.now() - started) / 1000).toFixed(1)} s (${why})\n`);
}
