// Where the builds read and write: the repository root and dist/.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../', import.meta.url));
export const distDir = join(root, 'dist');
