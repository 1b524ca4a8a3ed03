// Whether this process is draining: it received SIGTERM or SIGINT, stopped accepting connections
// and finishes what is in flight. Readiness answers 503 while it is, so a balancer that still
// holds a kept-alive connection to it sends the next request elsewhere.
let draining = false;

export function markDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}
