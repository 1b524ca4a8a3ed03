// The signed-in user as every page sees it: who they are and `can(permission)`, which decides which
// pages are listed and which buttons are drawn (the service checks every call again anyway).
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Permission, SessionInfo } from './types.ts';
import type { TimeSettings } from './format.ts';

export interface SessionValue {
  info: SessionInfo;
  can: (permission: Permission) => boolean;
  /** After the community's time settings changed: every page shows times in them from then on. */
  setTime: (time: TimeSettings) => void;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in page');
  return value;
}
