// Events as Discord webhook messages: one embed an event, up to 10 embeds a message, every text
// within Discord's limits (title 256, description 4096, field name 256, field value 1024, footer
// 2048, 25 fields, 6000 characters over a message's embeds). Players' names are the game's: their
// markdown is escaped and a message mentions no one but, when it reports a watched player joining,
// the role its endpoint names (Discord's allowed_mentions lets through that role alone). Never a
// position. Pure.
import type {
  BanData,
  KillData,
  OutboundEvent,
  QueueGrantedData,
  ServerStatusData,
  TestData,
  TrustApprovedData,
  WatchedJoinedData,
} from './events.ts';

export const discordLimits = {
  embedsPerMessage: 10,
  title: 256,
  description: 4096,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  fields: 25,
  messageChars: 6000,
} as const;

export interface Embed {
  title: string;
  description?: string;
  color: number;
  timestamp: string;
  fields: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
}

export interface DiscordMessage {
  /** The role's mention (embeds mention no one: Discord notifies for a message's content only). */
  content?: string;
  embeds: Embed[];
  allowed_mentions: { parse: never[]; roles?: string[] };
}

/** Kills and deaths of a player on a server, from its totals. */
export interface PlayerRecord {
  kills: number;
  deaths: number;
}

/** What an embed may add to an event: the players' records on its server (kill events). */
export interface EmbedContext {
  recordOf: (serverId: string, platformId: string) => PlayerRecord | undefined;
}

const colors = {
  watched: 0xe67e22,
  kill: 0xc0392b,
  ban: 0x8e44ad,
  lifted: 0x27ae60,
  online: 0x2ecc71,
  offline: 0x7f8c8d,
  queue: 0xf1c40f,
  trust: 0x2980b9,
};

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 3)}...`);
/** Markdown of a game's text shown as it is. */
const plain = (text: string) => text.replace(/[\\*_~`|>[\]]/g, (c) => `\\${c}`);
const nameOf = (p: { name: string | null; platformId: string }) => plain(p.name ?? p.platformId);
const playerOf = (p: { playerName: string | null; platformId: string }) => nameOf({ name: p.playerName, platformId: p.platformId });

const field = (name: string, value: string, inline = true) => ({
  name: cut(name, discordLimits.fieldName),
  value: cut(value || '-', discordLimits.fieldValue),
  inline,
});

const kdText = (r: PlayerRecord | undefined) =>
  r ? `${r.deaths === 0 ? r.kills.toFixed(2) : (r.kills / r.deaths).toFixed(2)} (${r.kills}/${r.deaths})` : '-';

/** A length of time, in its largest whole unit or two. */
export function lengthText(ms: number): string {
  const units: [string, number][] = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ];
  const parts: string[] = [];
  let rest = Math.max(0, Math.round(ms / 60_000) * 60_000);
  for (const [name, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 && parts.length < 2) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
    rest -= n * size;
  }
  return parts.length > 0 ? parts.join(' ') : 'under a minute';
}

const discordTime = (iso: string) => `<t:${Math.floor(Date.parse(iso) / 1000)}:f>`;

function killEmbed(d: KillData, at: string, context: EmbedContext): Embed {
  return {
    title: `${nameOf(d.killer)} killed ${nameOf(d.victim)}`,
    color: colors.kill,
    timestamp: at,
    fields: [
      field('Weapon', plain(d.weapon)),
      field('Distance', `${d.distance.toFixed(1)} m`),
      field('Hit zone', d.hitZone ? plain(d.hitZone) : '-'),
      field('Headshot', d.headshot ? 'yes' : 'no'),
      field(`Streak ${nameOf(d.killer)}`, d.killerStreak === undefined ? '-' : streakText(d.killerStreak)),
      field(`K/D ${nameOf(d.killer)}`, kdText(context.recordOf(d.serverId, d.killer.platformId))),
      field(`K/D ${nameOf(d.victim)}`, kdText(context.recordOf(d.serverId, d.victim.platformId))),
    ],
    footer: { text: cut(d.serverName, discordLimits.footer) },
  };
}

const streakText = (n: number) => `${n} kill${n === 1 ? '' : 's'} since last death`;

const watchedEmbed = (d: WatchedJoinedData, at: string): Embed => ({
  title: `Watched player joined: ${nameOf(d.player)}`,
  color: colors.watched,
  timestamp: at,
  fields: [
    field('Player', `${nameOf(d.player)} (${d.player.platformId})`, false),
    field('Server', plain(d.serverName)),
    field('Watched since', discordTime(d.watchedAt)),
    field('Watched by', d.watchedBy.name ? plain(d.watchedBy.name) : '-'),
  ],
});

function banEmbed(type: 'ban.created' | 'ban.lifted', { ban }: BanData, at: string): Embed {
  const player = `${playerOf(ban)} (${ban.platformId})`;
  if (type === 'ban.lifted') {
    return {
      title: `Ban lifted: ${playerOf(ban)}`,
      color: colors.lifted,
      timestamp: at,
      fields: [
        field('Player', player, false),
        field('Reason of the ban', ban.reason ? plain(ban.reason) : '-', false),
        field('Lifted by', ban.liftedBy?.name ? plain(ban.liftedBy.name) : '-'),
        field('Banned', discordTime(ban.bannedAt)),
      ],
    };
  }
  const length =
    ban.expiresAt === null
      ? 'permanent'
      : `${lengthText(Date.parse(ban.expiresAt) - Date.parse(ban.bannedAt))}, until ${discordTime(ban.expiresAt)}`;
  return {
    title: `Banned: ${playerOf(ban)}`,
    color: colors.ban,
    timestamp: at,
    fields: [
      field('Player', player, false),
      field('Reason', ban.reason ? plain(ban.reason) : '-', false),
      field('Length', length),
      field('By', ban.createdBy.name ? plain(ban.createdBy.name) : '-'),
    ],
  };
}

const statusEmbed = (online: boolean, d: ServerStatusData, at: string): Embed => ({
  title: `${plain(d.serverName)} is ${online ? 'online' : 'offline'}`,
  color: online ? colors.online : colors.offline,
  timestamp: at,
  fields: [],
});

const queueEmbed = (d: QueueGrantedData, at: string): Embed => ({
  title: `Priority queue ${d.created ? 'granted' : 'extended'}: ${playerOf(d.entry)}`,
  color: colors.queue,
  timestamp: at,
  fields: [
    field('Player', `${playerOf(d.entry)} (${d.entry.platformId})`, false),
    field('Until', d.entry.expiresAt ? discordTime(d.entry.expiresAt) : 'permanent'),
    field('Servers', d.entry.serverIds ? String(d.entry.serverIds.length) : 'all'),
  ],
});

const trustEmbed = (d: TrustApprovedData, at: string): Embed => ({
  title: `Trust pool entry approved: ${d.entry.platformId}`,
  color: colors.trust,
  timestamp: at,
  fields: [
    field('Category', d.entry.category),
    field('Until', d.entry.expiresAt ? discordTime(d.entry.expiresAt) : 'permanent'),
    field('Reason', plain(d.entry.reason), false),
  ],
});

const testEmbed = (d: TestData, at: string): Embed => ({
  title: 'Test event',
  description: cut(d.message, discordLimits.description),
  color: colors.trust,
  timestamp: at,
  fields: [],
});

/** An event's embed. */
export function embedOf(event: OutboundEvent, occurredAt: string, context: EmbedContext): Embed {
  const embed = (() => {
    switch (event.type) {
      case 'kill':
        return killEmbed(event.data, occurredAt, context);
      case 'ban.created':
      case 'ban.lifted':
        return banEmbed(event.type, event.data, occurredAt);
      case 'server.online':
      case 'server.offline':
        return statusEmbed(event.type === 'server.online', event.data, occurredAt);
      case 'player.watched.joined':
        return watchedEmbed(event.data, occurredAt);
      case 'queue.granted':
        return queueEmbed(event.data, occurredAt);
      case 'trust.entry.approved':
        return trustEmbed(event.data, occurredAt);
      case 'webhook.test':
        return testEmbed(event.data, occurredAt);
    }
  })();
  return { ...embed, title: cut(embed.title, discordLimits.title), fields: embed.fields.slice(0, discordLimits.fields) };
}

/** The characters Discord counts of an embed against a message's 6000. */
export const embedChars = (e: Embed) =>
  e.title.length +
  (e.description?.length ?? 0) +
  (e.footer?.text.length ?? 0) +
  e.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);

/**
 * How many of the embeds, from the first, go in one message: up to 10 and 6000 characters (an
 * embed is at most about 2,700 characters as built here, so the first always fits).
 */
export function firstMessageSize(embeds: Embed[]): number {
  let chars = 0;
  let n = 0;
  for (const e of embeds.slice(0, discordLimits.embedsPerMessage)) {
    chars += embedChars(e);
    if (n > 0 && chars > discordLimits.messageChars) break;
    n++;
  }
  return n;
}

/** A message of the embeds; `mentionRoleId` given, it mentions that role and lets no other mention through. */
export const discordMessage = (embeds: Embed[], mentionRoleId?: string): DiscordMessage =>
  mentionRoleId === undefined
    ? { embeds, allowed_mentions: { parse: [] } }
    : { content: `<@&${mentionRoleId}>`, embeds, allowed_mentions: { parse: [], roles: [mentionRoleId] } };
