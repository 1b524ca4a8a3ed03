// What the demo start prints: the dashboard and its sign-in, the demo's API key, every demo
// server's ingest token, what keeps the demo live, and lines to paste, each complete against this
// demo (its URL, its keys, the settings it made where the operator had none).
import { relative } from 'node:path';
import { projectRoot } from '../project-root.ts';
import type { DemoData } from './load-demo.ts';
import type { DemoLive } from './live.ts';
import { demoSku } from './settings.ts';
import type { DemoSettings } from './settings.ts';

/** A path as typed from the project's folder, where npm runs the demo and the CLI. */
const shown = (path: string) => relative(projectRoot, path) || '.';

function storeLines(base: string, settings: DemoSettings): string {
  const secret = settings.env.STORE_WEBHOOK_SECRET;
  const made = settings.set.filter((name) => name.startsWith('STORE_')).join(' and ');
  if (!secret || !settings.env.STORE_PRODUCTS)
    return `Store webhook: STORE_WEBHOOK_SECRET and STORE_PRODUCTS are your own here (docs/api.md, "The store webhook").`;
  return `Grant a queue slot through the store webhook. The service's environment holds (the demo set ${made}; your own replace them):
    STORE_WEBHOOK_SECRET=${secret}
    STORE_PRODUCTS='${settings.env.STORE_PRODUCTS}'
  A purchase signed with that secret:
  body='{"id":"demo-'$(date +%s%N)'","type":"purchase.completed","platformId":"76561198000000042","sku":"${demoSku}"}'
  t=$(date +%s); sig=$(printf '%s.%s' "$t" "$body" | openssl dgst -sha256 -hmac '${secret}' -r | cut -d' ' -f1)
  curl -s -X POST -H 'Content-Type: application/json' -H "X-Store-Signature: t=$t,v1=$sig" -d "$body" ${base}/api/store/webhook`;
}

const earlierHistoryNote = `
Note: this database holds the first server's log history as an earlier version of the demo fed it
(re-timed to its first run); the committed logs are now fed as they are, so those kills count twice
here. For a clean demo, start on a fresh database (dropdb -h 127.0.0.1 -U postgres gameservice) or
another DATABASE_SCHEMA.
`;

export function demoInstructions(
  demo: DemoData,
  live: Pick<DemoLive, 'caughtUp' | 'logsDir'>,
  port: number,
  settings: DemoSettings,
): string {
  const base = `http://127.0.0.1:${port}`;
  const server = demo.servers[0]!;
  const signIn = demo.admin.username
    ? `sign in as ${demo.admin.username} / ${demo.admin.password}${demo.admin.operator ? ' (the network operator: every page)' : ''}`
    : 'a user named demo-admin belongs to another community here: sign in as one of your own users';
  const signing = settings.set.includes('TRUST_SIGNING_KEY_FILE')
    ? `the demo signs with its own key, ${shown(settings.env.TRUST_SIGNING_KEY_FILE!)}`
    : 'signed with your TRUST_SIGNING_KEY';
  return `
Demo data loaded (account ${demo.accountId}).
Dashboard: ${base}/  (${signIn})
Public player page of a banned player: ${base}/p/${demo.poolPlayer}
API key: ${demo.apiKey}
${demo.servers.map((s) => `Server "${s.name}": id ${s.id}, ingest token ${s.ingestToken}`).join('\n')}
Partner key (trust export): ${demo.partnerKey}
(A re-run shows the same password, keys and tokens; they are kept in .demo-credentials.json.)
While the demo runs, both servers are live: "${server.name}" is fed by its agent, which follows
${shown(live.logsDir)}/ (the committed logs of fixtures/demo-logs/ and the live log the demo's game
writes: a PlayerList every 5 minutes) and reports its players every 30 s; "${demo.servers[1]!.name}" gets its
players' heartbeats every 30 s. The agent read ${live.caughtUp.lines} lines and sent ${live.caughtUp.sent} events (${live.caughtUp.accepted} new, ${live.caughtUp.duplicates} already counted), ${live.caughtUp.unparsed} lines not understood.

Try it:
  curl -s -H 'Authorization: Bearer ${demo.apiKey}' ${base}/api/v1/data/servers
  curl -s -H 'X-Service-Api-Key: ${demo.apiKey}' '${base}/api/v1/data/servers/${server.id}/leaderboard?limit=5'
  curl -s -H 'X-Service-Api-Key: ${demo.apiKey}' '${base}/api/v1/data/servers/${server.id}/kills?limit=3'
  curl -s -H 'X-Service-Api-Key: ${demo.apiKey}' ${base}/api/v1/data/servers/${server.id}/players
Push an event as the game server would:
  curl -s -X POST -H 'Authorization: Bearer ${server.ingestToken}' -H 'Content-Type: application/json' \\
    -d '{"events":[{"id":"'$(cat /proc/sys/kernel/random/uuid)'","type":"player.heartbeat","ts":'$(date +%s000)',"platformId":"76561198000000042","name":"You"}]}' \\
    ${base}/api/servers/${server.id}/events
Feed it the committed admin logs yourself: every event is one the demo sent already (same ids, same times), so nothing counts twice:
  npm run agent -- --url ${base} --server ${server.id} --token ${server.ingestToken} --logs fixtures/demo-logs --utc-offset +00:00 --once
Mirror the trust pool as a partner does (${signing}, published in ${base}/.well-known/service-trust.json):
  npm run cli -- trust mirror --url ${base} --key ${demo.partnerKey} --out data/demo-mirror.json
Act as the community's chat bot "Demo bot" for chat user ${demo.chatBot.chatUserId}, mapped to moderator:
  CHAT_BOT_SECRET=${demo.chatBot.secret} npm run cli -- chat ban.create --url ${base} --bot ${demo.chatBot.botId} \\
    --user ${demo.chatBot.chatUserId} --param platformId=76561198000000042 --param durationMinutes=1440
${storeLines(base, settings)}
OpenAPI: ${base}/api/v1/openapi.json   Health: ${base}/api/health
${demo.earlierLogHistory ? earlierHistoryNote : ''}`;
}
