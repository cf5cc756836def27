// What a newcomer from posthog-js or posthog-node is told by the Node client, against a real
// collector (or a bare HTTP server) on 127.0.0.1: posthog-js's capture shape is named, debug mode
// shows every capture, flush and response as posthog-node's debug() does, and a web page answering
// at a wrong host is described in one line instead of being dumped.
import http from 'node:http';
import { afterEach, expect, it, vi } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { PostHog, type HogtailError } from '../../src/node';

let collector: Collector | undefined;
const clients: PostHog[] = [];

async function setup(options: ConstructorParameters<typeof PostHog>[1] = {}) {
  collector = await createCollector();
  const client = new PostHog('phc_test_key', { host: collector.url, flushAt: 1000, flushOnExitTimeout: 0, ...options });
  const errors: HogtailError[] = [];
  client.on('error', (error) => errors.push(error));
  clients.push(client);
  return { collector, client, errors };
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(clients.splice(0).map((client) => client.shutdown(1000)));
  await collector?.close();
  collector = undefined;
});

it("capture('event', properties), posthog-js's shape, says which shape hogtail/node takes", async () => {
  const { collector, client, errors } = await setup();
  (client.capture as (...args: unknown[]) => void)('signed up', { plan: 'pro' });
  (client.capture as (...args: unknown[]) => void)();
  await client.flush();
  expect(collector.events).toEqual([]);
  expect(errors.map((error) => error.message)).toEqual([
    'capture() takes one object, as posthog-node\'s does: capture({ distinctId, event, properties }); got the string "signed up". The event was not queued.',
    "capture() takes one object, as posthog-node's does: capture({ distinctId, event, properties }); got nothing. The event was not queued.",
  ]);
  expect(client.stats().dropped.invalid).toBe(2);
});

/** A bare HTTP server on 127.0.0.1 answering every request with `status`, `type` and `body`. */
async function answering(status: number, type: string, body: string): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status, { 'Content-Type': type }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}

const HTML_PAGE = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>Page not found</title>\n</head>\n<body>\n${'<p>Sorry, nothing here.</p>\n'.repeat(80)}</body>\n</html>\n`;

it('debug mode prints every queued event, every flush and every response, the body cut short', async () => {
  const lines: string[] = [];
  vi.spyOn(console, 'debug').mockImplementation((line: string) => void lines.push(line));
  const { collector, client, errors } = await setup({ debug: true });
  client.capture({ distinctId: 'u1', event: 'signed up', properties: { plan: 'pro' } });
  await client.flush();
  expect(errors).toEqual([]);
  expect(collector.events).toHaveLength(1);
  expect(lines).toEqual([
    expect.stringMatching(
      /^\[hogtail\] queued \{"uuid":"[0-9a-f-]{36}","event":"signed up","distinct_id":"u1","properties":\{.*"plan":"pro"/,
    ),
    '[hogtail] flush: 1 event(s) queued, 0 waiting for their flags',
    expect.stringMatching(new RegExp(`^\\[hogtail\\] POST ${collector.url}/batch/ \\(\\d+ bytes, gzip\\): 200 \\{"status":"Ok"\\}$`)),
  ]);

  const page = await answering(500, 'text/html; charset=utf-8', HTML_PAGE);
  try {
    const failing = new PostHog('phc_test_key', { host: page.url, debug: true, fetchRetryCount: 0, flushOnExitTimeout: 0 });
    failing.on('error', () => undefined);
    lines.length = 0;
    failing.capture({ distinctId: 'u1', event: 'e' });
    await failing.flush();
    await failing.shutdown(0);
    const response = lines.find((line) => line.includes(': 500 '))!;
    expect(response).toMatch(
      /^\[hogtail\] POST http:\/\/127\.0\.0\.1:\d+\/batch\/ \(\d+ bytes, gzip\): 500 <!DOCTYPE html> <html lang="en"> <head> <title>Page not found<\/title>/,
    );
    expect(response).toMatch(/… \(\d+ characters\)$/);
    expect(response.length).toBeLessThan(450);
  } finally {
    page.close();
  }
});

it('debug off: none of those lines', async () => {
  const lines: string[] = [];
  vi.spyOn(console, 'debug').mockImplementation((line: string) => void lines.push(line));
  const { client } = await setup();
  client.capture({ distinctId: 'u1', event: 'signed up' });
  await client.flush();
  client.debug(true);
  client.capture({ distinctId: 'u1', event: 'after debug()' });
  await client.flush();
  expect(lines).toHaveLength(3);
  expect(lines[0]).toMatch(/queued .*after debug\(\)/);
});

it('a web page at a wrong host is one line: its status, its content type and the host to check', async () => {
  const page = await answering(404, 'text/html; charset=utf-8', HTML_PAGE);
  try {
    const { client, errors } = await setup();
    const wrong = new PostHog('phc_test_key', { host: page.url, flushOnExitTimeout: 0 });
    const heard: HogtailError[] = [];
    wrong.on('error', (error) => heard.push(error));
    wrong.capture({ distinctId: 'u1', event: 'e' });
    await wrong.flush();
    await wrong.shutdown(0);
    expect(errors).toEqual([]);
    void client;
    const messages = heard.map((error) => error.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toBe(
      `1 event(s) dropped: ${page.url} answered 404: an HTML page (text/html; charset=utf-8); no events accepted there; check the host`,
    );
  } finally {
    page.close();
  }
});
