// One web process's HTTP server and its graceful stop: on SIGTERM it stops accepting, answers
// the agents' long polls at once, lets the requests in flight finish and closes the kept-alive
// connections as they fall idle, all within the stop's budget; then the stores may close.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { createApp } from './app.ts';
import type { Deps } from './deps.ts';
import { isDraining, markDraining } from './health/draining.ts';

/** What a web process has to finish before it exits: under the 10 s a process manager grants, with room to close the stores. */
export const drainBudgetMs = 8000;

export interface WebServer {
  server: Server;
  /** Stops accepting and resolves once no request is in flight (or the budget is spent and the rest cut off). */
  stop: () => Promise<void>;
}

export async function startWeb(deps: Deps): Promise<WebServer> {
  const { port, host } = deps.config;
  const server = createApp(deps).listen(port, host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  let inFlight = 0;
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight += 1;
    res.once('close', () => (inFlight -= 1));
    // A request that came on a kept-alive connection while draining: answered, then the connection closes.
    if (isDraining()) res.setHeader('Connection', 'close');
  });
  const stop = async () => {
    markDraining();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Long polls answer with what they have (mostly nothing) instead of holding the stop.
    deps.agentWaits.close();
    for (let waited = 0; inFlight > 0 && waited < drainBudgetMs; waited += 25) {
      server.closeIdleConnections();
      await delay(25);
    }
    if (inFlight > 0) deps.log.warn({ inFlight }, 'requests still in flight after the drain budget: cut off');
    server.closeAllConnections();
    await closed;
  };
  return { server, stop };
}
