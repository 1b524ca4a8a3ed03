// GET /api/maps/tiles/* serves map tile files from MAP_TILES_DIR: no rate limit, no way out of
// the folder (@koa/send resolves the path inside its root and refuses traversal).
import Router from '@koa/router';
import { send } from '@koa/send';
import { resolve } from 'node:path';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';

const tileFile = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*\.(png|jpg|jpeg|webp)$/;

export function tilesRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  const root = resolve(deps.config.mapTilesDir);
  router.get('/api/maps/tiles/*path', async (ctx) => {
    const path = ctx.params.path ?? '';
    // Only plain tile names reach the file system; dot segments and hidden files answer 404.
    if (!tileFile.test(path) || path.split('/').some((segment) => segment.startsWith('.'))) return;
    try {
      await send(ctx, path, { root, maxage: 86_400_000, immutable: false, hidden: false });
    } catch (err) {
      // send's 404 carries the file system error, whose message names the absolute path on disk.
      if ((err as { status?: unknown }).status === 404) throw notFound('tile');
      throw err;
    }
  });
  return router;
}
