// Tests that run the package as users get it (child processes, browsers) need dist/. `npm test`
// builds first; a lone `npx vitest run <file>` builds here if dist/ is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export function ensureBuilt(file = 'dist/node/index.js'): string {
  const path = repoRoot + file;
  if (!existsSync(path)) execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  return path;
}
