/**
 * A small PostHog-shaped server on 127.0.0.1 for the React tests: answers flag requests (both the
 * /flags and the older /decide shape) with flags the test sets, and records every event that
 * arrives. Real HTTP, so the client under test runs its real request code.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

export interface ReceivedEvent {
  event: string;
  properties: Record<string, any>;
}

export interface FlagServer {
  url: string;
  events: ReceivedEvent[];
  flagRequests: number;
  setFlags(flags: Record<string, boolean | string>, payloads?: Record<string, unknown>): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
}

export async function startFlagServer(): Promise<FlagServer> {
  let flags: Record<string, boolean | string> = {};
  let payloads: Record<string, unknown> = {};
  const state: FlagServer = {
    url: '',
    events: [],
    flagRequests: 0,
    setFlags(next, nextPayloads = {}) {
      flags = next;
      payloads = nextPayloads;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer(async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', '*');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path.startsWith('/flags') || path.startsWith('/decide')) {
      state.flagRequests++;
      const v2 = Object.fromEntries(
        Object.entries(flags).map(([key, value]) => [
          key,
          {
            key,
            enabled: value !== false,
            variant: typeof value === 'string' ? value : null,
            metadata: { payload: payloads[key] ?? null },
          },
        ]),
      );
      const answer = { flags: v2, featureFlags: flags, featureFlagPayloads: payloads, supportedCompression: ['gzip', 'gzip-js'] };
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    }
    const parsed = JSON.parse(body || '{}');
    const batch: ReceivedEvent[] = Array.isArray(parsed) ? parsed : (parsed.batch ?? [parsed]);
    state.events.push(...batch);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"Ok"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Waits for a condition, never for a duration. */
export async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A React root in the test DOM and a fresh flag server, per test: registers the hooks that set
 * them up and take them down, and hands them out through one object.
 */
export interface ReactPage {
  server: FlagServer;
  container: HTMLElement;
  root: Root;
}

export function useReactPage(): ReactPage {
  const page = {} as ReactPage;
  beforeEach(async () => {
    localStorage.clear();
    page.server = await startFlagServer();
    page.container = document.createElement('div');
    document.body.append(page.container);
    page.root = createRoot(page.container);
  });
  afterEach(async () => {
    await act(async () => page.root.unmount());
    page.container.remove();
    await page.server.close();
  });
  return page;
}
