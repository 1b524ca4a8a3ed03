// Serves the dashboard the web process itself hosts: the files web/ builds into web/dist
// (npm run build:web, run by npm ci, npm start, npm run demo and npm test when stale). GET and
// HEAD only, and never a path under /api/ or /.well-known/: those stay the routers' (and their
// JSON 404). /p/<identifier> is the public player page; /assets/* are the hashed bundles; every
// other path is the dashboard's own address (its router reads the path), so index.html answers it.
import { existsSync } from 'node:fs';
import { send } from '@koa/send';
import type { Middleware } from 'koa';
import type { AppState } from '../http/context.ts';
import { projectPath } from '../project-root.ts';

export const distDir = projectPath('web', 'dist');

// Any letter case: /API/SERVERS is the routers' (a 404 or 401 there), never a page.
const reserved = /^\/(api|\.well-known)(\/|$)/i;
const publicFile = /^\/[A-Za-z0-9_-][A-Za-z0-9_.-]*\.(svg|ico|png|txt)$/;
const assetFile = /^\/assets\/[A-Za-z0-9_.-]+\.(js|css|svg|png|woff2?)$/;
const yearMs = 365 * 24 * 3600_000;

// The pages load only their own scripts and styles and call only this service; no page may frame them.
const pageHeaders = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

export function dashboard(root = distDir): Middleware<AppState> {
  const page = async (ctx: Parameters<Middleware<AppState>>[0], file: 'index.html' | 'player.html') => {
    if (!existsSync(`${root}/${file}`)) {
      // Not built (a checkout without `npm ci`, or the build failed): say how to build, in words.
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body =
        'The dashboard is not built yet. Run `npm run build:web` (npm ci, npm start and npm run demo build it too), then reload this page.\n';
      return;
    }
    ctx.set(pageHeaders);
    // A page names its bundles by hash: it must be asked for again after a deploy, the bundles never.
    await send(ctx, file, { root, maxage: 0, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  };

  return async (ctx, next) => {
    const path = ctx.path;
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || reserved.test(path)) return next();
    if (assetFile.test(path) || publicFile.test(path)) {
      try {
        await send(ctx, path, { root, maxage: assetFile.test(path) ? yearMs : 3600_000, immutable: assetFile.test(path), hidden: false });
      } catch (err) {
        if ((err as { status?: unknown }).status !== 404) throw err;
        return next(); // a missing file is a 404 like any other unknown path
      }
      return;
    }
    if (path === '/p' || path.startsWith('/p/')) return page(ctx, 'player.html');
    // Only a browser asking for a page gets the dashboard; a script asking for JSON gets the 404.
    if (!ctx.accepts('html')) return next();
    return page(ctx, 'index.html');
  };
}
