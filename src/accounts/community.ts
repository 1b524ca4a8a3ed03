// A community: an account with its first owner, created in one transaction. The operator's
// account (created by setup) is the only one whose owners hold the network permissions.
import type { Core } from '../core.ts';
import { inTransaction } from '../store/db.ts';
import { insertAccount, markOperatorAccount } from './account.repo.ts';
import type { Account } from './account.repo.ts';
import { createUser } from '../users/users.ts';
import { countUsers, lockUserCreation } from '../users/user.repo.ts';
import type { User } from '../users/user.repo.ts';

/** Creates the account and owner; as the operator's (setup), only while no user exists: else undefined. */
export async function createCommunity(
  deps: Core,
  input: { accountName: string; username: string; password: string },
  asOperator = false,
): Promise<{ account: Account; owner: User } | undefined> {
  return inTransaction(deps.db, async (tx) => {
    if (asOperator) {
      await lockUserCreation(tx);
      if ((await countUsers(tx)) > 0) return undefined;
    }
    const account = await insertAccount(tx, input.accountName);
    if (asOperator) await markOperatorAccount(tx, account.id);
    const owner = await createUser({ config: deps.config, db: tx }, account.id, input.username, input.password, 'owner');
    return { account, owner };
  });
}
