// Per-request facts that middleware puts on ctx.state.
import type { ParameterizedContext } from 'koa';
import type { ApiKeyIdentity } from '../accounts/api-key.ts';

export interface AppState {
  requestId: string;
  apiKey?: ApiKeyIdentity;
}

export type AppContext = ParameterizedContext<AppState>;
