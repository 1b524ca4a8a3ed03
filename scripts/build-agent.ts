// Bundles the game-server agent (src/agent/main.ts) with every package it uses into one file,
// dist/agent.mjs, that runs with plain Node and no node_modules: a game host gets that file alone.
import { join } from 'node:path';
import { build } from 'esbuild';
import { buildState } from './stale.ts';
import { distDir, root } from './paths.ts';

export const agentBundle = join(distDir, 'agent.mjs');

// The bundled CommonJS packages (commander, pino) call require() for Node's own modules, which an
// ES module lacks: give the bundle one.
const banner = [
  '// The game-server agent, bundled from src/agent/main.ts (npm run build:agent). Run: node agent.mjs --help',
  "import { createRequire as createRequireForBundle } from 'node:module';",
  'const require = createRequireForBundle(import.meta.url);',
].join('\n');

export const agent = {
  name: 'agent',
  output: 'dist/agent.mjs',
  // The bundle is its own stamp: esbuild writes it only when the whole build succeeded.
  state: () => buildState(agentBundle, [join(root, 'src'), join(root, 'package-lock.json')]),
  build: async () => {
    await build({
      entryPoints: [join(root, 'src/agent/main.ts')],
      outfile: agentBundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      banner: { js: banner },
      legalComments: 'eof',
      logLevel: 'warning',
    });
  },
};
