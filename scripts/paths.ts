// Where the builds read and write: the repository root and the service's and agent's dist/.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../', import.meta.url));
export const distDir = join(root, 'dist');
