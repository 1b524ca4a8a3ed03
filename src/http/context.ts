// Per-request facts that middleware puts on ctx.state.
import type { ParameterizedContext } from 'koa';
import type { ApiKeyIdentity } from '../accounts/api-key.ts';
import type { Principal } from '../auth/authenticate.ts';

export interface AppState {
  requestId: string;
  /** The client's address (see http/client.ts for when X-Forwarded-For counts). */
  clientIp: string;
  https: boolean;
  apiKey?: ApiKeyIdentity;
  principal?: Principal;
}

export type AppContext = ParameterizedContext<AppState>;
