// The dashboard's build: two pages (the dashboard and the public player page), Preact's JSX,
// hashed assets under /assets/ that the web process serves (src/dashboard/serve.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('./'),
  base: '/',
  logLevel: 'warn',
  clearScreen: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: { input: { index: here('./index.html'), player: here('./player.html') } },
  },
});
