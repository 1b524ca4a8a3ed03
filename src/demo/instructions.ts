// What the demo start prints: the dashboard and its sign-in, the demo's API key, every demo
// server's ingest token, and lines to paste.
import type { DemoData } from './load-demo.ts';

export function demoInstructions(demo: DemoData, port: number): string {
  const base = `http://127.0.0.1:${port}`;
  const server = demo.servers[0]!;
  const signIn = demo.admin.username
    ? `sign in as ${demo.admin.username} / ${demo.admin.password}${demo.admin.operator ? ' (the network operator: every page)' : ''}`
    : 'a user named demo-admin belongs to another community here: sign in as one of your own users';
  return `
Demo data loaded (account ${demo.accountId}).
Dashboard: ${base}/  (${signIn})
Public player page of a banned player: ${base}/p/${demo.poolPlayer}
API key: ${demo.apiKey}
${demo.servers.map((s) => `Server "${s.name}": id ${s.id}, ingest token ${s.ingestToken}`).join('\n')}
(A re-run shows the same password, key and tokens; they are kept in .demo-credentials.json.)
"${server.name}" was fed by the agent from a DayZ admin log (fixtures/demo-logs/, re-timed to now):
  ${demo.agent.lines} lines read, ${demo.agent.sent} events sent, ${demo.agent.unparsed} lines not understood.

Try it:
  curl -s -H 'Authorization: Bearer ${demo.apiKey}' ${base}/api/v1/data/servers
  curl -s -H 'X-Service-Api-Key: ${demo.apiKey}' '${base}/api/v1/data/servers/${server.id}/leaderboard?limit=5'
  curl -s -H 'X-Service-Api-Key: ${demo.apiKey}' '${base}/api/v1/data/servers/${server.id}/kills?limit=3'
  curl -s -H 'X-Service-Api-Key: ${demo.apiKey}' ${base}/api/v1/data/servers/${server.id}/players
Push an event as the game server would:
  curl -s -X POST -H 'Authorization: Bearer ${server.ingestToken}' -H 'Content-Type: application/json' \\
    -d '{"events":[{"id":"'$(cat /proc/sys/kernel/random/uuid)'","type":"player.heartbeat","ts":'$(date +%s000)',"platformId":"76561198000000042","name":"You"}]}' \\
    ${base}/api/servers/${server.id}/events
Feed it from a DayZ server's admin logs, as the demo did:
  npm run agent -- --url ${base} --server ${server.id} --token ${server.ingestToken} --logs <folder of the .ADM files> --once
OpenAPI: ${base}/api/v1/openapi.json   Health: ${base}/api/health
`;
}
