// /api/chat/bots and /api/chat/settings (users.manage): a community's chat bots, their secrets
// shown once at creation and rotation, and whether the community refuses unsigned chat calls.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { isUuid } from '../http/uuid.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { listBots, requiresSignature } from './bots.repo.ts';
import { botView, createBot, removeBot, rotateBotSecret, setChatSettings } from './bots.ts';
import type { ChatBotCreated, ChatBotList, ChatSettings } from '../http/schema-types.ts';

const createBody = bodyOf('chat-bot-create.json');
const settingsBody = bodyOf('chat-settings.json');

const botIdOf = (ctx: AppContext) => {
  const id = ctx.params.id!;
  if (!isUuid(id)) throw notFound('chat bot');
  return id;
};

export function chatBotsRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/chat', sensitive: true });
  router.use(authenticate(deps), requirePermission('users.manage'));

  router.get('/bots', async (ctx) => {
    ctx.body = { bots: (await listBots(deps.db, principalOf(ctx).accountId)).map(botView) } satisfies ChatBotList;
  });

  router.post('/bots', jsonBody, async (ctx) => {
    const { bot, secret } = await createBot(deps, ctx, createBody(ctx).name);
    ctx.status = 201;
    ctx.body = { bot: botView(bot), secret } satisfies ChatBotCreated;
  });

  router.post('/bots/:id/secret', async (ctx) => {
    const rotated = await rotateBotSecret(deps, ctx, botIdOf(ctx));
    if (!rotated) throw notFound('chat bot');
    ctx.body = { bot: botView(rotated.bot), secret: rotated.secret } satisfies ChatBotCreated;
  });

  router.delete('/bots/:id', async (ctx) => {
    if (!(await removeBot(deps, ctx, botIdOf(ctx)))) throw notFound('chat bot');
    ctx.status = 204;
  });

  router.get('/settings', async (ctx) => {
    ctx.body = { requireSignature: await requiresSignature(deps.db, principalOf(ctx).accountId) } satisfies ChatSettings;
  });

  router.put('/settings', jsonBody, async (ctx) => {
    const { requireSignature } = settingsBody(ctx);
    await setChatSettings(deps, ctx, requireSignature);
    ctx.body = { requireSignature } satisfies ChatSettings;
  });

  return router;
}
