// Account -> Settings (settings.manage): the time zone and clock every page of the community's
// dashboard shows times in, with a sample of the current time as it would read.
import { useId, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Choices, ErrorText, Notice, PageTitle, Problem, TextField, useAction } from '../components.tsx';
import { formatDateTime } from '../format.ts';
import type { TimeSettings } from '../format.ts';
import { isTimeZone } from '../restart-times.ts';
import { useSession } from '../session.tsx';
import { knownZones, useTimeSettings } from '../time-settings.ts';

const clockWords = (s: TimeSettings) => (s.clock === '12h' ? '12-hour' : '24-hour');

export function SettingsPage() {
  const { setTime } = useSession();
  const current = useTimeSettings();
  const [f, setF] = useState<TimeSettings>(current);
  const [done, setDone] = useState('');
  const save = useAction();
  const zones = useId();
  const zone = f.timeZone.trim();
  const sample = isTimeZone(zone) ? formatDateTime(new Date().toISOString(), { ...f, timeZone: zone }) : undefined;

  const submit = (e: Event) => {
    e.preventDefault();
    setDone('');
    void save.run(async () => {
      if (!isTimeZone(zone))
        throw new Problem(`"${zone}" is no time zone: give an IANA name such as Europe/Berlin, America/New_York or UTC.`);
      const saved = await api<TimeSettings>('PATCH', '/api/account/settings', { timeZone: zone, clock: f.clock });
      setF(saved);
      setTime(saved);
      setDone(`Saved: times are shown in ${saved.timeZone}, ${clockWords(saved)}.`);
    });
  };

  return (
    <>
      <PageTitle>Settings</PageTitle>
      <p class="muted">For everyone of your community: every time in the dashboard is shown in this zone, with the zone named.</p>
      {done && <Notice>{done}</Notice>}
      <form class="panel" onSubmit={submit} aria-labelledby="time-settings">
        <h2 id="time-settings">Time</h2>
        <TextField
          label="Time zone"
          value={f.timeZone}
          onInput={(timeZone) => setF({ ...f, timeZone })}
          required
          maxLength={64}
          list={zones}
          hint="An IANA name such as Europe/Berlin or America/New_York; UTC if your admins live in many zones."
        />
        <datalist id={zones}>
          {knownZones().map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <Choices
          legend="Clock"
          value={f.clock}
          onChange={(clock) => setF({ ...f, clock: clock as TimeSettings['clock'] })}
          options={[
            ['24h', '24-hour (14:05)'],
            ['12h', '12-hour (2:05 PM)'],
          ]}
        />
        <p>
          Now reads: <strong data-testid="time-sample">{sample ?? 'no such time zone'}</strong>
        </p>
        <ErrorText error={save.error} />
        <button class="primary" type="submit" disabled={save.busy}>
          Save
        </button>
      </form>
    </>
  );
}
