// A small history router: real links (keyboard and middle-click work as on any page), pushState
// for clicks inside the dashboard, and path patterns such as /servers/:id.
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener('popstate', notify);

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.scrollTo(0, 0);
  notify();
}

const current = () => location.pathname;

function useLocationPart(part: () => string): string {
  const [value, setValue] = useState(part());
  useEffect(() => {
    const listener = () => setValue(part());
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return value;
}

export function usePath(): string {
  return useLocationPart(current);
}

/** The query string (?q=...), followed like the path: a search page reads it again on each navigation. */
export function useSearch(): string {
  return useLocationPart(() => location.search);
}

/** One query parameter of the address the page opened with ('' when absent): links prefill forms with it. */
export function searchParam(name: string): string {
  return new URLSearchParams(location.search).get(name) ?? '';
}

/** The parameters of a pattern (/servers/:id) if the path matches it. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.replace(/\/+$/, '').split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(got[i]!);
    else if (part !== got[i]) return null;
  }
  return params;
}

type LinkProps = { href: string; children: ComponentChildren } & Omit<JSX.HTMLAttributes<HTMLAnchorElement>, 'href'>;

export function Link({ href, children, ...rest }: LinkProps) {
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
