// A standard endpoint's signing secret and the Standard Webhooks headers of a request. The secret
// is `whsec_` and the base64 HMAC-SHA256, under the configured webhook key, of the endpoint's id
// and the secret's generation: derived again to sign, so no secret is stored, and a rotation is a
// new generation. After a rotation the secret before also signs for 24 h (a receiver accepts a
// request any of whose signatures it can verify), so the receiver's owner has a day to deploy the
// new one. Pure.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const secretPrefix = 'whsec_';
export const rotationOverlapMs = 24 * 3600_000;

export const endpointSecret = (key: Buffer, endpointId: string, generation: number) =>
  `${secretPrefix}${createHmac('sha256', key).update(`webhook:${endpointId}:${generation}`).digest('base64')}`;

export interface SigningState {
  id: string;
  secretGeneration: number;
  previousSecretValidUntil: string | null;
}

/** The secrets a request is signed with at `nowMs`: the current one, and the one before during the overlap. */
export function signingSecrets(key: Buffer, endpoint: SigningState, nowMs: number): string[] {
  const secrets = [endpointSecret(key, endpoint.id, endpoint.secretGeneration)];
  if (endpoint.secretGeneration > 1 && endpoint.previousSecretValidUntil !== null && Date.parse(endpoint.previousSecretValidUntil) > nowMs)
    secrets.push(endpointSecret(key, endpoint.id, endpoint.secretGeneration - 1));
  return secrets;
}

/** webhook-id, webhook-timestamp (seconds) and webhook-signature (one `v1,<sig>` a secret, space-separated). */
export function standardHeaders(secrets: string[], messageId: string, nowMs: number, body: string): Record<string, string> {
  const at = new Date(Math.floor(nowMs / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(at.getTime() / 1000),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
