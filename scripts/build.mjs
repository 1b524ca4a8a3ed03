// Runs the build (scripts/build.ts) through tsx, a devDependency. On an install without
// devDependencies (production) there is nothing to build with: `--if-stale`, as the npm scripts'
// pre-steps and prepare ask, then runs what was built before that install, and says nothing.
import process from 'node:process';

let tsx;
try {
  tsx = await import('tsx/esm/api');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !process.argv.includes('--if-stale')) throw err;
  process.exit(0);
}
await tsx.tsImport('./build.ts', import.meta.url);
