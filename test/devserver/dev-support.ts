import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer, type DevServer, type DevServerOptions } from '../../src/devserver';

/** Dev servers and data dirs made by a test, torn down by `cleanup()` in afterEach. */
export function devHarness() {
  const servers = new Set<DevServer>();
  const dirs: string[] = [];
  return {
    tempDir(prefix = 'hogtail-dev-test-'): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    async start(options: Partial<DevServerOptions> & { dataDir: string }): Promise<{ server: DevServer; log: string[] }> {
      const log: string[] = [];
      const server = await startDevServer({ log: (line) => log.push(line), ...options });
      servers.add(server);
      return { server, log };
    },
    async stop(server: DevServer): Promise<void> {
      servers.delete(server);
      await server.close();
    },
    async cleanup(): Promise<void> {
      for (const server of servers) await server.close();
      servers.clear();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function getJson<T = Record<string, unknown>>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Polls until `check` returns a value; for conditions that settle asynchronously. Never asserts time. */
export async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
