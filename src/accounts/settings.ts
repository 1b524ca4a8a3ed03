// A community's settings: the IANA zone and the clock (24-hour or 12-hour) its dashboard shows
// every time in. A zone is checked against the runtime's zone database and kept under its
// canonical name, so "europe/berlin" is stored as the browser will name it, Europe/Berlin.
import { Info } from 'luxon';
import type { Core } from '../core.ts';
import type { AppContext } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { auditAction } from '../audit/audit.ts';
import { principalOf } from '../auth/authenticate.ts';
import type { AccountSettings, AccountSettingsUpdate } from '../http/schema-types.ts';
import { findSettings, saveSettings } from './settings.repo.ts';

/** The zone's canonical IANA name, or undefined when the runtime knows no such zone. */
export function canonicalZone(zone: string): string | undefined {
  // An offset ("+01:00") is accepted by newer runtimes' Intl but is no zone: it has no daylight saving of a place.
  if (!/^[A-Za-z]/.test(zone) || !Info.isValidIANAZone(zone)) return undefined;
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
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
