// Builds the dashboard with Vite (web/ -> web/dist); scripts/build.ts runs it when asked or stale.
import { join } from 'node:path';
import { build } from 'vite';
import { writeStamp } from '../scripts/stale.ts';
import { buildState, stampFile, webDir } from './build-state.ts';

export const web = {
  name: 'dashboard',
  output: 'web/dist',
  state: buildState,
  build: async () => {
    await build({ configFile: join(webDir, 'vite.config.ts') });
    writeStamp(stampFile);
  },
};
