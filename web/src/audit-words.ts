// The audit log's actions and targets in words: "ban.create" reads "Ban created". The actions the
// service records are listed here once, for the labels and for the action filter's suggestions.

/** Every action the service records, with its words. */
const actionWords: Record<string, string> = {
  'auth.login': 'Signed in',
  'auth.login-failed': 'Sign-in failed',
  'auth.lockout': 'Sign-ins locked out',
  'auth.logout': 'Signed out',
  'setup.admin': 'Service set up',
  'account.create': 'Community added',
  'account.settings.set': 'Time settings changed',
  'ban.create': 'Ban created',
  'ban.update': 'Ban changed',
  'ban.lift': 'Ban lifted',
  'ban.revoke': 'Ban lifted',
  'ban.import': 'Ban imported',
  'ban.import-file': 'Bans imported from the ban file',
  'queue.add': 'Added to the queue',
  'queue.extend': 'Queue entry extended',
  'queue.update': 'Queue entry changed',
  'queue.remove': 'Removed from the queue',
  'queue.revoke': 'Queue slot taken back',
  'queue.expire': 'Queue entries expired',
  'queue.import-file': 'Queue imported from the priority file',
  'files.sync': 'Game file synced',
  'files.sync-failed': 'Game file sync failed',
  'server.create': 'Server added',
  'server.update': 'Server changed',
  'server.revoke': 'Server revoked',
  'server.ingest-token.rotate': 'New ingest token',
  'server.restart': 'Restart asked for',
  'server.message': 'Message to players',
  'server.kick': 'Player kicked',
  'server.restart-schedule.set': 'Restart schedule set',
  'server.restart-schedule.remove': 'Restart schedule removed',
  'apikey.create': 'API key created',
  'apikey.revoke': 'API key revoked',
  'user.create': 'User added',
  'user.update': 'User changed',
  'user.delete': 'User removed',
  'chat.action': 'Chat bot action',
  'chat.denied': 'Chat bot action refused',
  'chat.sig-rejected': 'Chat call signature refused',
  'chat.bot.create': 'Chat bot added',
  'chat.bot.rotate': 'Chat bot secret rotated',
  'chat.bot.delete': 'Chat bot removed',
  'chat.settings.set': 'Chat settings changed',
  'chat.user-role.set': 'Chat user role set',
  'chat.user-role.remove': 'Chat user role removed',
  'trust.submit': 'Submitted to the trust pool',
  'trust.approve': 'Pool entry approved',
  'trust.reject': 'Pool entry rejected',
  'trust.overturn': 'Pool entry overturned',
  'partner-key.create': 'Partner key issued',
  'partner-key.revoke': 'Partner key revoked',
  'operator.data-api.set': 'Data API switched',
  'operator.rebuild': 'Derived state rebuilt',
  'player.merged': 'Player ids merged',
  'store.purchase-refunded': 'Store refund, nothing granted',
  'store.refund-before-purchase': 'Store refund before its purchase',
  'store.revoke-nothing-left': 'Store refund, entry already gone',
};

const commandWords: Record<string, string> = { restart: 'Restart', message: 'Message', kick: 'Kick' };
const outcomeWords: Record<string, string> = { sent: 'sent', done: 'done', failed: 'failed', expired: 'expired unsent' };

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "ban.create" -> "Ban created"; an action of a newer service than this page reads as its words ("Foo bar baz"). */
export function actionLabel(action: string): string {
  const known = actionWords[action];
  if (known) return known;
  // A command's outcome as the agent reported it: server.restart.done, server.kick.failed.
  const outcome = /^server\.(restart|message|kick)\.(sent|done|failed|expired)$/.exec(action);
  if (outcome) return `${commandWords[outcome[1]!]} ${outcomeWords[outcome[2]!]}`;
  return capitalised(action.replace(/[._-]+/g, ' '));
}

/** The actions, and the kinds (ban, queue, ...) they come in, to suggest in the filter. */
export const knownActions = [...new Set(Object.keys(actionWords).flatMap((a) => [a.split('.')[0]!, a]))];

const targetWords: Record<string, string> = {
  server: 'Server',
  user: 'User',
  ban: 'Ban',
  'queue-entry': 'Queue entry',
  queue: 'Queue',
  'trust-entry': 'Pool entry',
  player: 'Player',
  apikey: 'API key',
  'chat-bot': 'Chat bot',
  'chat-user': 'Chat user',
  'chat-action': 'Chat action',
  'partner-key': 'Partner key',
  account: 'Community',
  setting: 'Setting',
  'store-purchase': 'Store product',
};

/** "Server", "Ban": what kind of thing a target is, before its name. */
export const targetLabel = (type: string) => targetWords[type] ?? capitalised(type.replace(/[._-]+/g, ' '));
