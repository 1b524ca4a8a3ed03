// The game host's own restart command (--restart-command, set only by the agent's configuration on
// that host, never by the service): run with a timeout, the whole process group killed when it runs
// over; the end of its output kept for the command's result.
import { spawn } from 'node:child_process';
import process from 'node:process';

export interface LocalOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The last bytes of its output (stdout and stderr interleaved). */
  outputTail: string;
}

export const outputTailBytes = 400;

export function runLocalCommand(command: string, timeoutMs: number): Promise<LocalOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = Buffer.alloc(0);
    const keep = (chunk: Buffer) => {
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > outputTailBytes) tail = tail.subarray(tail.length - outputTailBytes);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    const done = (exitCode: number | null, signal: string | null) => {
      clearTimeout(timer);
      resolve({
        exitCode,
        signal,
        timedOut,
        outputTail: tail
          .toString('utf8')
          .replace(/^\uFFFD+/, '')
          .trim(),
      });
    };
    child.once('error', (err) => {
      keep(Buffer.from(String(err.message)));
      done(null, null);
    });
    child.once('close', (code, signal) => done(code, signal));
  });
}
