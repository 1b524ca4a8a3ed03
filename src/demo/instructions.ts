// What the demo start prints: the fresh API key and lines to paste.
import type { DemoData } from './load-demo.ts';

export function demoInstructions(demo: DemoData, port: number): string {
  const base = `http://127.0.0.1:${port}`;
  const server = demo.servers[0]!;
  return `
Demo data loaded (account ${demo.accountId}).
API key (shown once): ${demo.apiKey}
Ingest token of "${server.name}" (shown once): ${server.ingestToken}

Try it:
  curl -s -H 'Authorization: Bearer ${demo.apiKey}' ${base}/api/v1/data/servers
  curl -s -H 'X-Service-Api-Key: ${demo.apiKey}' '${base}/api/v1/data/servers/${server.id}/leaderboard?limit=5'
  curl -s -H 'X-Service-Api-Key: ${demo.apiKey}' '${base}/api/v1/data/servers/${server.id}/kills?limit=3'
  curl -s -H 'X-Service-Api-Key: ${demo.apiKey}' ${base}/api/v1/data/servers/${server.id}/players
Push an event as the game server would:
  curl -s -X POST -H 'Authorization: Bearer ${server.ingestToken}' -H 'Content-Type: application/json' \\
    -d '{"events":[{"id":"'$(cat /proc/sys/kernel/random/uuid)'","type":"player.heartbeat","ts":'$(date +%s000)',"platformId":"76561198000000042","name":"You"}]}' \\
    ${base}/api/servers/${server.id}/events
OpenAPI: ${base}/api/v1/openapi.json   Health: ${base}/api/health
`;
}
