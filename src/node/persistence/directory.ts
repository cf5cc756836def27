/**
 * mkdir -p, written out: Node's own `mkdirSync(path, { recursive: true })` spins forever at full CPU
 * on some paths it cannot create (seen under /proc on Node 20), and a misconfigured path must cost
 * a report, never a hung process.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorCode } from './errors';

export function ensureDirectory(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') {
      if (statSync(dir).isDirectory()) return;
      throw Object.assign(new Error(`${dir} exists and is not a directory`), { code: 'ENOTDIR' });
    }
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw error;
    ensureDirectory(parent);
    mkdirSync(dir);
  }
}
