// /api/account/settings: the community's settings. Every signed-in user reads them (the dashboard
// shows times in them); settings.manage changes them.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { accountSettings, changeAccountSettings } from './settings.ts';
import type { AccountSettings } from '../http/schema-types.ts';

const updateBody = bodyOf('account-settings-update.json');

export function accountSettingsRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/account/settings', sensitive: true });
  router.use(authenticate(deps));

  router.get('/', async (ctx) => {
    ctx.body = (await accountSettings(deps, principalOf(ctx).accountId)) satisfies AccountSettings;
  });

  router.patch('/', requirePermission('settings.manage'), jsonBody, async (ctx) => {
    ctx.body = (await changeAccountSettings(deps, ctx, updateBody(ctx))) satisfies AccountSettings;
  });

  return router;
}
