// The community's time settings as every page reads them: the dashboard provides what the service
// answers for the signed-in account; the public player page, which has no account, shows UTC.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { utc24 } from './format.ts';
import type { TimeSettings } from './format.ts';

export const TimeSettingsContext = createContext<TimeSettings>(utc24);

export const useTimeSettings = (): TimeSettings => useContext(TimeSettingsContext);

let zoneList: string[] | undefined;
/** Zones to pick from as one types (read once); the browser's list leaves out UTC, the commonest choice. */
export const knownZones = () => (zoneList ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')]);
