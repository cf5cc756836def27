import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createIngestHandler, type IngestOutcome } from '../../src/devserver/ingest/ingest';
import { aBatch, anEvent, postJson } from './helpers';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

it('serves the rules from a server of your own and reports each verdict', async () => {
  const handler = createIngestHandler({ maxEventBytes: 10_000 });
  const outcomes: IngestOutcome[] = [];
  server = createServer((req, res) => void handler(req, res).then((outcome) => outcomes.push(outcome)));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  expect((await postJson(`${url}/batch/`, aBatch([anEvent()]))).status).toBe(200);
  expect((await postJson(`${url}/batch/`, aBatch([anEvent({ properties: { x: 'y'.repeat(20_000) } })]))).status).toBe(413);

  expect(outcomes.map((outcome) => outcome.kind)).toEqual(['accepted', 'rejected']);
  const [accepted] = outcomes;
  expect(accepted?.kind === 'accepted' && accepted.events[0]?.requestId).toBe(1);
});
