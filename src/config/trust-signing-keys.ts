// Reads the trust proof signing keys from configuration: PEM text (TRUST_SIGNING_KEY) and/or PEM
// files (TRUST_SIGNING_KEY_FILE, comma-separated paths). Several keys serve a rotation: the first
// key listed signs, every key is published in the JWKS. A key that does not load stops the start.
import { readFileSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';

const pemBlock = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g;

function blocksOf(text: string): string[] {
  // Environment files often carry a PEM on one line with literal "\n".
  return [...text.replaceAll('\\n', '\n').matchAll(pemBlock)].map((m) => m[0]);
}

function checkKey(pem: string, where: string): string | undefined {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa')
      return `${where}: an RSA private key is needed for RS256, got ${key.asymmetricKeyType ?? 'another kind'}`;
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < 2048) return `${where}: the RSA key has ${bits} bits, at least 2048 are needed`;
    return undefined;
  } catch (err) {
    return `${where}: not a readable PEM private key (${(err as Error).message})`;
  }
}

export function trustSigningKeysFrom(text: string | undefined, files: string | undefined): { keys: string[]; problems: string[] } {
  const keys: string[] = [];
  const problems: string[] = [];
  const add = (source: string, where: string) => {
    const blocks = blocksOf(source);
    if (blocks.length === 0) problems.push(`${where}: no PEM block (-----BEGIN PRIVATE KEY-----) found`);
    blocks.forEach((pem, i) => {
      const problem = checkKey(pem, blocks.length > 1 ? `${where} (key ${i + 1})` : where);
      if (problem) problems.push(problem);
      else keys.push(pem);
    });
  };
  if (text !== undefined) add(text, 'TRUST_SIGNING_KEY');
  for (const path of (files ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    let content: string;
    try {
      content = readFileSync(path, 'utf8');
    } catch (err) {
      problems.push(`TRUST_SIGNING_KEY_FILE: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      continue;
    }
    add(content, `TRUST_SIGNING_KEY_FILE ${path}`);
  }
  return { keys, problems };
}
