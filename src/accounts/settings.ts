// A community's settings: the IANA zone and the clock (24-hour or 12-hour) its dashboard shows
// every time in. A zone is checked against the runtime's zone database and kept as given, but
// spelled as that database spells it ("europe/berlin" is kept as Europe/Berlin). It is never
// renamed: the runtime's ICU may know Asia/Kolkata by its old name, Asia/Calcutta, which is not what was chosen.
import { Info } from 'luxon';
import type { Core } from '../core.ts';
import type { AppContext } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { auditAction } from '../audit/audit.ts';
import { principalOf } from '../auth/authenticate.ts';
import type { AccountSettings, AccountSettingsUpdate } from '../http/schema-types.ts';
import { findSettings, saveSettings } from './settings.repo.ts';

let spellings: Map<string, string> | undefined;
/** Lower-cased zone name -> the runtime's spelling of it (read once). */
const spelled = () => (spellings ??= new Map(['UTC', ...Intl.supportedValuesOf('timeZone')].map((z) => [z.toLowerCase(), z])));

/** The zone as it is kept (its spelling fixed), or undefined when the runtime knows no such zone. */
export function canonicalZone(zone: string): string | undefined {
  // An offset ("+01:00") is accepted by newer runtimes' Intl but is no zone: it has no daylight saving of a place.
  if (!/^[A-Za-z]/.test(zone) || !Info.isValidIANAZone(zone)) return undefined;
  return spelled().get(zone.toLowerCase()) ?? zone;
}

export async function accountSettings(deps: Core, accountId: string): Promise<AccountSettings> {
  const settings = await findSettings(deps.db, accountId);
  if (!settings) throw notFound('account');
  return settings;
}

export async function changeAccountSettings(deps: Core, ctx: AppContext, change: AccountSettingsUpdate): Promise<AccountSettings> {
  const timeZone = change.timeZone === undefined ? undefined : canonicalZone(change.timeZone);
  if (change.timeZone !== undefined && timeZone === undefined)
    throw badRequest(`body.timeZone "${change.timeZone}" is no IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`);
  const saved = await saveSettings(deps.db, principalOf(ctx).accountId, { timeZone, clock: change.clock });
  if (!saved) throw notFound('account');
  await auditAction(deps, ctx, {
    action: 'account.settings.set',
    target: { type: 'setting', id: 'time' },
    details: { ...change, timeZone },
  });
  return saved;
}
