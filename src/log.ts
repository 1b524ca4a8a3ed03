// Structured JSON logs (pino); every request line carries its request id.
import { pino } from 'pino';
import type { Config } from './config.ts';

export type Log = pino.Logger;

export function createLog(level: Config['logLevel']): Log {
  return pino({
    level,
    base: undefined,
    // Secrets travel in these headers; they never reach a log line.
    redact: ['req.headers.authorization', 'req.headers["x-service-api-key"]', 'req.headers.cookie'],
  });
}
