// The few shared pieces every page is built from: labelled fields, errors in words, tables that
// become cards on a phone, a secret shown once with a copy button, a two-step confirm, data loading.
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from './api.ts';
import { formatDateTime, relative } from './format.ts';
import { useTimeSettings } from './time-settings.ts';

/** The page's heading; it takes the focus when the page opens, so keyboard and screen-reader users start there. */
export function PageTitle({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

/**
 * A panel opened from a row (edit, submit), for its heading: the panel is scrolled into view (as
 * little as it takes, the whole panel when it fits) and the heading takes the focus, so the form is
 * where the eye and the keyboard are, however long the list around it.
 */
export function useOpenedPanel<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    (ref.current?.closest('section') ?? ref.current)?.scrollIntoView({ block: 'nearest' });
    ref.current?.focus({ preventScroll: true });
  }, []);
  return ref;
}

/** Gives the focus back to the control that opened a panel (a row's button, by its id), scrolled into view. */
export function refocus(id: string): void {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

interface InputProps {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: string;
  type?: string;
  required?: boolean;
  pattern?: string;
  placeholder?: string;
  autoComplete?: string;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  name?: string;
  multiline?: boolean;
  /** The id of a datalist offering values as one types. */
  list?: string;
}

export function TextField(p: InputProps) {
  const id = useId();
  const hintId = p.hint ? `${id}-hint` : undefined;
  const common = {
    id,
    name: p.name,
    value: p.value,
    required: p.required,
    placeholder: p.placeholder,
    'aria-describedby': hintId,
    onInput: (e: JSX.TargetedEvent<HTMLInputElement | HTMLTextAreaElement>) => p.onInput(e.currentTarget.value),
  };
  return (
    <div class="field">
      <label for={id}>{p.label}</label>
      {p.multiline ? (
        <textarea {...common} maxLength={p.maxLength} />
      ) : (
        <input
          {...common}
          type={p.type ?? 'text'}
          list={p.list}
          pattern={p.pattern}
          autoComplete={p.autoComplete}
          minLength={p.minLength}
          maxLength={p.maxLength}
          min={p.min}
          max={p.max}
        />
      )}
      {p.hint && (
        <span class="hint" id={hintId}>
          {p.hint}
        </span>
      )}
    </div>
  );
}

export function SelectField({
  label,
  value,
  onChange,
  options,
  hint,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: [string, string][];
  hint?: string;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      {hint && (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}

export function Choices({
  legend,
  value,
  onChange,
  options,
}: {
  legend: string;
  value: string;
  onChange: (value: string) => void;
  options: [string, string][];
}) {
  const name = useId();
  return (
    <fieldset class="field">
      <legend>{legend}</legend>
      {options.map(([v, text]) => (
        <label class="choice" key={v}>
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} /> {text}
        </label>
      ))}
    </fieldset>
  );
}

/** A problem the page finds in what was typed, before asking the service; its message is a whole sentence. */
export class Problem extends Error {}

const messageOf = (error: unknown) =>
  error instanceof ApiFailure || error instanceof Problem
    ? error.message
    : `Something went wrong in this page (${error instanceof Error ? error.message : String(error)}). Reload it and try again.`;

export function ErrorText({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p class="error" role="alert">
      {messageOf(error)}
    </p>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <p class="notice" role="status">
      {children}
    </p>
  );
}

export function Badge({ tone, children }: { tone: 'ok' | 'off' | 'warn' | 'bad'; children: ComponentChildren }) {
  return <span class={`badge ${tone}`}>{children}</span>;
}

export function TimeAgo({ iso, never = 'never' }: { iso: string | null; never?: string }) {
  const settings = useTimeSettings();
  if (!iso) return <span class="muted">{never}</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso, settings)}>
      {relative(iso)}
    </time>
  );
}

/** A date and time in the community's zone and clock, the zone named (its full IANA name on hover). */
export function DateText({ iso, none = '–' }: { iso: string | null; none?: string }) {
  const settings = useTimeSettings();
  if (!iso) return <span>{none}</span>;
  return (
    <time dateTime={iso} title={settings.timeZone}>
      {formatDateTime(iso, settings)}
    </time>
  );
}

/** The words of a column heading, for the cells of that column. */
const headWords = (h: string | [string, 'num']) => (Array.isArray(h) ? h[0] : h);

/**
 * Gives every body cell its column's heading as data-label: on a phone the rows become cards and
 * each cell shows that label above its value (styles.css), so no row needs sideways scrolling.
 * Rows a page adds or changes later (a reload, a row's own form) are labelled as they come.
 */
function useCellLabels(tbody: { current: HTMLTableSectionElement | null }, head: (string | [string, 'num'])[]) {
  const words = head.map(headWords).join('\u0000');
  useLayoutEffect(() => {
    const body = tbody.current;
    if (!body) return;
    const labels = words.split('\u0000');
    const label = () => {
      for (const row of Array.from(body.rows)) {
        // A cell spanning the row (an empty list's message) is no column's.
        if (row.cells.length === 1 && row.cells[0]!.colSpan > 1) continue;
        Array.from(row.cells).forEach((cell, i) => {
          const text = labels[i];
          if (text && cell.getAttribute('data-label') !== text) cell.setAttribute('data-label', text);
        });
      }
    };
    label();
    const observer = new MutationObserver(label);
    observer.observe(body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [words]);
}

/**
 * A table: on a wide screen it scrolls sideways inside its frame when it must (the frame is
 * focusable, so keys scroll it); on a phone each row is a card of labelled cells, every button in reach.
 */
export function Table({
  caption,
  head,
  children,
  empty,
}: {
  caption: string;
  head: (string | [string, 'num'])[];
  children: ComponentChildren;
  empty?: string | false;
}) {
  const tbody = useRef<HTMLTableSectionElement>(null);
  useCellLabels(tbody, head);
  return (
    <div class="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((h) =>
              Array.isArray(h) ? (
                <th scope="col" class="num" key={h[0]}>
                  {h[0]}
                </th>
              ) : (
                <th scope="col" key={h}>
                  {h}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody ref={tbody}>
          {children}
          {empty && (
            <tr>
              <td colSpan={head.length} class="muted">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('Copied.');
    } catch {
      setDone('Copying was refused by the browser: select the text and copy it by hand.');
    }
  };
  return (
    <span class="actions">
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status">{done}</span>
    </span>
  );
}

/** A secret shown once (API key, ingest token, chat bot secret): the value, a copy button and a warning; `kept` says why it cannot be shown again. */
export function SecretBox({
  title,
  value,
  children,
  onDismiss,
  kept = 'Only a hash is kept, so it cannot be shown again.',
}: {
  title: string;
  value: string;
  children?: ComponentChildren;
  onDismiss: () => void;
  kept?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [value]);
  return (
    <div class="secret" ref={ref} tabIndex={-1} aria-labelledby="secret-title">
      <h3 id="secret-title">{title}</h3>
      <p>Shown once: copy it now. {kept}</p>
      <code class="block" data-testid="secret-value">
        {value}
      </code>
      <CopyButton text={value} />
      {children}
      <p>
        <button type="button" onClick={onDismiss}>
          I have copied it
        </button>
      </p>
    </div>
  );
}

/** A button that asks once more before doing something that cannot be undone. */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  danger = true,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown> | void;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button type="button" class={danger ? 'danger' : ''} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span class="actions" role="group" aria-label={confirmLabel}>
      <span>{confirmLabel}</span>
      <button
        ref={yes}
        type="button"
        class={danger ? 'danger' : 'primary'}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        Yes
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        No
      </button>
    </span>
  );
}

/** Loads data for a page; `reload` fetches again (after a change). */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { data: T | undefined; error: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (error: unknown) => live && setState({ data: undefined, error, loading: false }),
    );
    return () => {
      live = false;
    };
    // The caller names what the load depends on (the loader itself is a new closure every render).
  }, [...deps, round]);
  return { ...state, reload: useCallback(() => setRound((r) => r + 1), []) };
}

/** Runs a change (a form's submit, a button) with its busy flag and its error in words. */
export function useAction(): { busy: boolean; error: unknown; run: (work: () => Promise<void>) => Promise<boolean>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(undefined) };
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}
