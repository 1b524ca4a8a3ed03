// The admin logs of a folder, oldest first by the date of their first `AdminLog started on` header
// (file names carry a date too, but it does not always match the header). A file with no header
// yet (just created) sorts last: it is the newest.
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface AdmFile {
  name: string;
  path: string;
  /** `YYYY-MM-DD HH:MM:SS` of the first header; null while the file has none. */
  started: string | null;
}

const headerPattern = /AdminLog started on (\d{4}-\d{2}-\d{2}) at (\d{2}:\d{2}:\d{2})/;
/** The header sits after a few blank lines and a row of stars: the first 64 KiB always hold it. */
const headerScanBytes = 65_536;

/** Header dates never change once written: read each file's once. */
const startedCache = new Map<string, string>();

async function startedOf(path: string): Promise<string | null> {
  const cached = startedCache.get(path);
  if (cached) return cached;
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(headerScanBytes);
    const { bytesRead } = await file.read(buffer, 0, headerScanBytes, 0);
    const m = headerPattern.exec(buffer.subarray(0, bytesRead).toString('utf8'));
    if (!m) return null;
    const started = `${m[1]} ${m[2]}`;
    startedCache.set(path, started);
    return started;
  } finally {
    await file.close();
  }
}

export async function listAdmFiles(dir: string): Promise<AdmFile[]> {
  const names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && /\.adm$/i.test(e.name)).map((e) => e.name);
  const files: AdmFile[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      files.push({ name, path, started: await startedOf(path) });
    } catch (err) {
      // Removed between the listing and the read: it is simply not there any more.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return files.sort((a, b) => {
    if (a.started !== b.started) return a.started === null ? 1 : b.started === null ? -1 : a.started < b.started ? -1 : 1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}
