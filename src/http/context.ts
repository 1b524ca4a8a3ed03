// The Koa context every middleware and route sees: ctx.state is a RequestState.
import type { ParameterizedContext } from 'koa';
import type { RequestState } from './request-state.ts';

export type AppState = RequestState;

export type AppContext = ParameterizedContext<AppState>;
