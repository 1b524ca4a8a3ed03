// Compiles the service to JavaScript (src/ and workers/ -> dist/src/ and dist/workers/, tsc with
// tsconfig.build.json) and copies beside it the files it reads at run time next to its code (SQL,
// Lua). The project's other files (schemas/, migrations/, fixtures/, web/dist/) are found from the
// project's root (src/project-root.ts), the same from the sources or the build.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';
import { buildState, writeStamp } from './stale.ts';
import { distDir, root } from './paths.ts';

const srcDir = join(root, 'src');
const workersDir = join(root, 'workers');
const stamp = join(distDir, '.built');
/** Built by scripts/build-agent.ts into the same folder: a service build leaves it. */
const notOurs = new Set(['agent.mjs']);

export const service = {
  name: 'service',
  output: 'dist',
  state: () =>
    buildState(stamp, [srcDir, workersDir, ...['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((f) => join(root, f))]),
  build: async () => {
    // From clean, so a source deleted or renamed leaves no module behind to be imported by mistake.
    mkdirSync(distDir, { recursive: true });
    for (const name of readdirSync(distDir)) if (!notOurs.has(name)) rmSync(join(distDir, name), { recursive: true });
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
    cpSync(srcDir, join(distDir, 'src'), { recursive: true, filter: (from) => !from.endsWith('.ts') });
    writeStamp(stamp);
  },
};
