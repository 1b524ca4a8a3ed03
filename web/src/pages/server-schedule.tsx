// A server's restart schedule: the times of day it restarts, in its zone, and the next restart in the
// community's zone and the server's (servers.read); set, changed and removed with servers.control.
import { useId, useState } from 'preact/hooks';
import { api, ApiFailure, waitInWords } from '../api.ts';
import { Badge, ConfirmButton, ErrorText, Loading, Notice, Problem, TextField, useAction, useLoad } from '../components.tsx';
import { formatDateTime, formatInZone } from '../format.ts';
import { knownZones, useTimeSettings } from '../time-settings.ts';
import { everyHours, isTimeZone, parseTimes } from '../restart-times.ts';
import type { RestartSchedule } from '../types.ts';

/** The schedule, or null when none is set (the service answers 404). */
const loadSchedule = (serverId: string) =>
  api<RestartSchedule>('GET', `/api/servers/${serverId}/restart-schedule`).catch((err: unknown) => {
    if (err instanceof ApiFailure && err.status === 404) return null;
    throw err;
  });

export function RestartScheduleSection({ serverId, control }: { serverId: string; control: boolean }) {
  const schedule = useLoad(() => loadSchedule(serverId), [serverId]);
  const [done, setDone] = useState('');
  const changed = (words: string) => {
    setDone(words);
    schedule.reload();
  };
  return (
    <section aria-labelledby="schedule-title">
      <h2 id="schedule-title">Restart schedule</h2>
      <ErrorText error={schedule.error} />
      {done && <Notice>{done}</Notice>}
      {schedule.data === undefined && !schedule.error && <Loading what="the restart schedule" />}
      {schedule.data !== undefined && (
        <>
          <ScheduleFacts schedule={schedule.data} />
          {control && (
            <ScheduleEditor key={schedule.data?.updatedAt ?? 'none'} serverId={serverId} schedule={schedule.data} onChanged={changed} />
          )}
        </>
      )}
    </section>
  );
}

const warningInWords = (seconds: number) => (seconds === 0 ? 'none' : `${waitInWords(seconds)} before`);

function ScheduleFacts({ schedule: s }: { schedule: RestartSchedule | null }) {
  const settings = useTimeSettings();
  if (!s) return <p class="muted">No restart schedule is set: the server restarts only when someone restarts it.</p>;
  return (
    <dl class="facts">
      <div>
        <dt>State</dt>
        <dd>{s.enabled ? <Badge tone="ok">On</Badge> : <Badge tone="off">Off</Badge>}</dd>
      </div>
      <div>
        <dt>Every day at</dt>
        <dd>
          {s.times.join(', ')} ({s.timeZone})
        </dd>
      </div>
      <div>
        <dt>Warning</dt>
        <dd>{warningInWords(s.warningSeconds)}</dd>
      </div>
      {s.message && (
        <div>
          <dt>Message</dt>
          <dd>{s.message}</dd>
        </div>
      )}
      <div>
        <dt>Next restart</dt>
        <dd>
          {s.nextAt ? (
            <>
              <time dateTime={s.nextAt}>{formatDateTime(s.nextAt, settings)}</time> ({formatInZone(s.nextAt, s.timeZone)} in the server's
              zone, {s.timeZone})
            </>
          ) : (
            'none while the schedule is off'
          )}
        </dd>
      </div>
    </dl>
  );
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function ScheduleEditor({
  serverId,
  schedule,
  onChanged,
}: {
  serverId: string;
  schedule: RestartSchedule | null;
  onChanged: (words: string) => void;
}) {
  const [f, setF] = useState({
    enabled: schedule?.enabled ?? true,
    timeZone: schedule?.timeZone ?? browserZone(),
    times: schedule?.times.join(', ') ?? '',
    warningSeconds: String(schedule?.warningSeconds ?? 300),
    message: schedule?.message ?? '',
  });
  const save = useAction();
  const remove = useAction();
  const zones = useId();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const timeZone = f.timeZone.trim();
      if (!isTimeZone(timeZone))
        throw new Problem(`"${timeZone}" is no time zone: give an IANA name such as Europe/Berlin, America/New_York or UTC.`);
      const saved = await api<RestartSchedule>('PUT', `/api/servers/${serverId}/restart-schedule`, {
        enabled: f.enabled,
        timeZone,
        times: parseTimes(f.times),
        warningSeconds: Number(f.warningSeconds),
        message: f.message.trim() || null,
      });
      onChanged(saved.enabled ? 'Restart schedule saved.' : 'Restart schedule saved, and off: no scheduled restarts until it is on.');
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="schedule-edit-title">
      <h3 id="schedule-edit-title">{schedule ? 'Change the schedule' : 'Set a schedule'}</h3>
      <div class="field">
        <label class="choice">
          <input type="checkbox" checked={f.enabled} onChange={(e) => setF({ ...f, enabled: e.currentTarget.checked })} /> Restart on this
          schedule
        </label>
      </div>
      <TextField
        label="Time zone"
        value={f.timeZone}
        onInput={(timeZone) => setF({ ...f, timeZone })}
        required
        maxLength={64}
        list={zones}
        hint="The server's zone, an IANA name such as Europe/Berlin; the times are in it."
      />
      <datalist id={zones}>
        {knownZones().map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <EveryHours onFill={(times) => setF({ ...f, times: times.join(', ') })} />
      <TextField
        label="Times of day"
        value={f.times}
        onInput={(times) => setF({ ...f, times })}
        required
        hint="24-hour HH:MM in the server's zone, separated by commas (at most 48)."
      />
      <div class="grid2">
        <TextField
          label="Warning before each restart (seconds)"
          type="number"
          value={f.warningSeconds}
          onInput={(warningSeconds) => setF({ ...f, warningSeconds })}
          required
          min={0}
          max={3600}
          hint="The restart is queued this long before each time: players are warned, the server locked and the files pulled first."
        />
        <TextField
          label="Message with each warning (optional)"
          value={f.message}
          onInput={(message) => setF({ ...f, message })}
          maxLength={200}
        />
      </div>
      <ErrorText error={save.error ?? remove.error} />
      <div class="actions">
        <button class="primary" type="submit" disabled={save.busy}>
          Save the schedule
        </button>
        {schedule && (
          <ConfirmButton
            label="Remove the schedule"
            confirmLabel="Remove the restart schedule? The server then restarts only when someone restarts it."
            onConfirm={() =>
              remove.run(async () => {
                await api('DELETE', `/api/servers/${serverId}/restart-schedule`);
                onChanged('Restart schedule removed.');
              })
            }
          />
        )}
      </div>
    </form>
  );
}

/** "Every N hours from HH:MM": fills the times of day (the list stays editable afterwards). */
function EveryHours({ onFill }: { onFill: (times: string[]) => void }) {
  const [hours, setHours] = useState('4');
  const [from, setFrom] = useState('02:00');
  const [problem, setProblem] = useState<unknown>(undefined);
  const fill = () => {
    try {
      onFill(everyHours(Number(hours), from));
      setProblem(undefined);
    } catch (err) {
      setProblem(err);
    }
  };
  return (
    <fieldset class="field">
      <legend>Every few hours</legend>
      <div class="row">
        <TextField label="Every (hours)" type="number" value={hours} onInput={setHours} />
        <TextField label="From" type="time" value={from} onInput={setFrom} />
        <div class="field button">
          <button type="button" onClick={fill}>
            Fill the times
          </button>
        </div>
      </div>
      <ErrorText error={problem} />
    </fieldset>
  );
}
