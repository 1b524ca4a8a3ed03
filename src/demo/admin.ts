// The demo's dashboard sign-in: `demo-admin`, owner of the demo community, with a password kept in
// .demo-credentials.json (a re-run shows the same one). On a database where nobody has signed up
// yet, the demo community becomes the network operator's, so the demo shows the network pages too.
// Its permanent "aimbot" ban is in the trust pool, approved, so the public player page has a case.
// Its chat bot, "Demo bot", acts for a chat user mapped to moderator, so a signed call can ban.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { markOperatorAccount } from '../accounts/account.repo.ts';
import { verifyPassword } from '../auth/password.ts';
import { countUsers, findUserForLogin } from '../users/user.repo.ts';
import { changeUser, createUser } from '../users/users.ts';
import { decideEntry, submitToPool } from '../trust/pool.ts';
import { insertBot, listBots } from '../chat/bots.repo.ts';
import { botSecret } from '../chat/bot-secrets.ts';
import { setChatRole } from '../chat/roles-file.ts';
import { defaultCredentialsFile, saveAdminPassword, savedAdminPassword } from './credentials.ts';

export const demoAdminName = 'demo-admin';

export interface DemoAdmin {
  /** Undefined when a user of that name belongs to another community (it is left alone). */
  username?: string;
  password?: string;
  operator: boolean;
}

/** Creates (or finds) the demo admin; its password is the saved one while it works, else a new one. */
export async function demoAdmin(deps: Deps, accountId: string, file = defaultCredentialsFile): Promise<DemoAdmin> {
  const firstUser = (await countUsers(deps.db)) === 0;
  if (firstUser) await markOperatorAccount(deps.db, accountId);
  const existing = await findUserForLogin(deps.db, demoAdminName);
  if (existing && existing.accountId !== accountId) return { operator: false };
  const saved = savedAdminPassword(deps, file);
  let password = saved;
  if (!existing) {
    password ??= randomBytes(12).toString('base64url');
    await createUser(deps, accountId, demoAdminName, password, 'owner');
  } else if (!saved || !(await verifyPassword(saved, existing.passwordHash))) {
    password = randomBytes(12).toString('base64url');
    await changeUser(deps, accountId, existing.id, { password });
  }
  saveAdminPassword(deps, password!, file);
  const user = (await findUserForLogin(deps.db, demoAdminName))!;
  return { username: demoAdminName, password, operator: user.isOperator };
}

/** Puts the demo's ban into the trust pool and approves it, once: a re-run finds it submitted and leaves it. */
export async function demoPoolEntry(deps: Deps, accountId: string, submitterId: string, banId: string): Promise<void> {
  try {
    const entry = await submitToPool(
      deps,
      { accountId, userId: submitterId },
      {
        banId,
        category: 'cheating',
        reason: 'Aimbot: kills through walls at 400 m, seen on two servers (demo data)',
        evidence: ['https://example.org/demo-clip'],
      },
    );
    await decideEntry(deps, entry.id, 'approve');
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'CONFLICT')) throw err; // submitted by an earlier run
  }
}

export interface DemoChatBot {
  botId: string;
  /** Derived from the service's bot key (CHAT_BOT_KEY, else JWT_SECRET): the same while those are. */
  secret: string;
  /** A Discord-like user id mapped to the moderator role in the demo community. */
  chatUserId: string;
}

export const demoChatUser = '175928847299117063';
const demoBotName = 'Demo bot';

/** The demo community's chat bot (made once) and its moderator. */
export async function demoChatBot(deps: Deps, accountId: string): Promise<DemoChatBot> {
  const bot =
    (await listBots(deps.db, accountId)).find((b) => b.name === demoBotName) ??
    (await insertBot(deps.db, accountId, demoBotName, new Date(deps.clock.now()).toISOString()));
  await setChatRole(deps, accountId, demoChatUser, 'moderator');
  return { botId: bot.id, secret: botSecret(deps.config.chat.botKey, bot.id, bot.generation), chatUserId: demoChatUser };
}
