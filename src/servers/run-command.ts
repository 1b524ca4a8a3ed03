// Runs a server's configured restart command (a shell command an admin with servers.manage set)
// with a timeout: the whole process group is killed when it runs over. Keeps the last bytes of
// its output (stdout and stderr interleaved) for the audit log.
import { spawn } from 'node:child_process';
import process from 'node:process';

export interface CommandOutcome {
  exitCode: number | null;
  /** The signal that ended it (SIGKILL after a timeout). */
  signal: string | null;
  timedOut: boolean;
  outputTail: string;
  durationMs: number;
}

export const outputTailBytes = 4096;

export function runShellCommand(command: string, timeoutMs: number): Promise<CommandOutcome> {
  const started = Date.now();
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
      resolve({ exitCode, signal, timedOut, outputTail: tail.toString('utf8').replace(/^\uFFFD+/, ''), durationMs: Date.now() - started });
    };
    child.once('error', (err) => {
      keep(Buffer.from(String(err.message)));
      done(null, null);
    });
    child.once('close', (code, signal) => done(code, signal));
  });
}
