// What `npm run demo` puts in the service's environment where the operator left a variable unset,
// so that every example it prints works against it: a trust signing key of its own (made once, kept
// in .demo-trust-key.pem beside the credentials) so the partner export is signed and the mirror
// verifies it; the store webhook's secret and a product (sku demo-vip30: 30 days of queue on every
// demo server); and JWT_SECRET, so sign-ins and the chat bot's secret survive a restart. The secrets
// are kept in .demo-settings.json (git-ignored, readable by its owner only): a re-run uses the same.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { projectPath } from '../project-root.ts';

export const defaultSettingsFiles = {
  settings: projectPath('.demo-settings.json'),
  trustKey: projectPath('.demo-trust-key.pem'),
};

export const demoSku = 'demo-vip30';

export interface DemoSettings {
  /** Variables to add to the environment the configuration is read from. */
  env: Record<string, string>;
  /** The names of those the demo set; every other one is the operator's own. */
  set: string[];
}

interface Saved {
  storeWebhookSecret?: string;
  jwtSecret?: string;
}

function readSaved(file: string): Saved {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Saved;
  } catch {
    return {}; // none yet, or unreadable: made anew
  }
}

function writeOwnerOnly(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The demo's RSA key (PKCS #8 PEM), made the first time. */
function trustKeyFile(file: string): string {
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    writeOwnerOnly(file, privateKey);
  }
  return file;
}

/** The demo's values for the variables `env` leaves unset (an empty value counts as unset, as the configuration reads it). */
export function demoSettings(env: Record<string, string | undefined>, accountId: string, files = defaultSettingsFiles): DemoSettings {
  const unset = (name: string) => env[name] === undefined || env[name] === '';
  const saved = readSaved(files.settings);
  const out: Record<string, string> = {};
  if (unset('TRUST_SIGNING_KEY') && unset('TRUST_SIGNING_KEY_FILE')) out.TRUST_SIGNING_KEY_FILE = trustKeyFile(files.trustKey);
  if (unset('STORE_WEBHOOK_SECRET')) out.STORE_WEBHOOK_SECRET = saved.storeWebhookSecret ??= randomBytes(32).toString('hex');
  if (unset('STORE_PRODUCTS')) out.STORE_PRODUCTS = JSON.stringify({ [demoSku]: { accountId, days: 30, servers: 'all' } });
  if (unset('JWT_SECRET')) out.JWT_SECRET = saved.jwtSecret ??= randomBytes(32).toString('base64url');
  writeOwnerOnly(files.settings, `${JSON.stringify(saved, null, 2)}\n`);
  return { env: out, set: Object.keys(out) };
}
