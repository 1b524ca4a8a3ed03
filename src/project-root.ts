// Where the project's own files are (schemas, migrations, fixtures, the dashboard's build): the
// nearest folder above this module holding package.json, whether the module runs from its source
// (src/, under tsx or Deno) or from the build (dist/src/, under Node).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function rootAbove(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const projectRoot = rootAbove(dirname(fileURLToPath(import.meta.url)));

/** A path under the project's root, as a file path. */
export const projectPath = (...parts: string[]) => join(projectRoot, ...parts);
