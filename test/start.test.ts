// The README's main job, `npm start`, end to end: builds are done by `npm test` before this runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ensureBuilt, repoRoot } from './support/built';

it('scripts/start.js --once runs the example against hogtail dev and reports what arrived', async () => {
  ensureBuilt('dist/devserver/index.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'hogtail-start-'));
  try {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [repoRoot + 'scripts/start.js', '--once'], {
        // Port 0: a fresh hogtail dev on a free port, never one another process runs on 8010.
        env: { ...process.env, HOGTAIL_DEV_DATA: dataDir, HOGTAIL_DEV_PORT: '0' },
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('exit', (exitCode) => resolve({ code: exitCode, stdout }));
    });
    expect(code, stdout).toBe(0);
    const received = /hogtail dev received (\d+) events this run/.exec(stdout);
    expect(Number(received?.[1])).toBeGreaterThan(400);
    expect(stdout).toMatch(/0 rejected requests/);
    for (const name of ['$identify', '$groupidentify', '$pageview', 'survey sent', '$feature_flag_called', 'order placed']) {
      expect(stdout).toContain(name);
    }
    expect(stdout).toMatch(/Live events page: +http:\/\/127\.0\.0\.1:\d+\//);
    expect(stdout).toMatch(/SPA example: +http:\/\/127\.0\.0\.1:\d+\//);
    expect(stdout).toMatch(/from \d+ people and 5 groups/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
