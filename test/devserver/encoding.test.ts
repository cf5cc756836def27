import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { aBatch, anEvent, post } from './helpers';

let collector: Collector;
beforeEach(async () => {
  collector = await createCollector();
});
afterEach(async () => {
  await collector.close();
});

const batchJson = (): string => JSON.stringify(aBatch([anEvent(), anEvent()]));

describe('gzip', () => {
  it.each(['gzip', 'gzip-js'])('inflates when the query says compression=%s, sent as text/plain', async (compression) => {
    const reply = await post(`${collector.url}/batch/?compression=${compression}`, gzipSync(batchJson()), {
      'Content-Type': 'text/plain',
    });
    expect(reply.status).toBe(200);
    expect(collector.events).toHaveLength(2);
  });

  it('inflates when the header says Content-Encoding: gzip', async () => {
    // fetch sends the bytes as given; the header only labels them.
    const reply = await post(`${collector.url}/batch/`, gzipSync(batchJson()), {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
    });
    expect(reply.status).toBe(200);
    expect(collector.events).toHaveLength(2);
  });

  it('inflates on the gzip magic bytes alone', async () => {
    const reply = await post(`${collector.url}/batch/`, gzipSync(batchJson()), { 'Content-Type': 'application/octet-stream' });
    expect(reply.status).toBe(200);
    expect(collector.events).toHaveLength(2);
  });

  it('answers 400 when the query promises gzip but the body is not', async () => {
    const reply = await post(`${collector.url}/batch/?compression=gzip-js`, batchJson());
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/could not be inflated/);
  });

  it('answers 400 for malformed JSON inside valid gzip', async () => {
    const reply = await post(`${collector.url}/batch/?compression=gzip`, gzipSync('{"batch": nope'));
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/malformed JSON/);
  });
});

describe('other encodings', () => {
  it('refuses compression=lz64 with a message saying so', async () => {
    const reply = await post(`${collector.url}/e/?compression=lz64`, 'data=N4Ig', {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/lz64 is not supported/);
  });

  it('unwraps a form body whose data= is url-encoded JSON', async () => {
    const reply = await post(`${collector.url}/e/`, `data=${encodeURIComponent(batchJson())}`, {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(reply.status).toBe(200);
    expect(collector.events).toHaveLength(2);
  });

  it('unwraps a form body whose data= is base64 JSON, as legacy posthog-js sends it', async () => {
    const base64 = Buffer.from(batchJson()).toString('base64');
    const reply = await post(`${collector.url}/e/?compression=base64`, `data=${encodeURIComponent(base64)}`, {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(reply.status).toBe(200);
    expect(collector.events).toHaveLength(2);
  });

  it('recognises data= without a form content type, even with an unescaped base64 +', async () => {
    const json = JSON.stringify(aBatch([anEvent({ properties: { note: '>>>?' } })]));
    const base64 = Buffer.from(json).toString('base64');
    expect(base64).toContain('+');
    const reply = await post(`${collector.url}/e/`, `data=${base64}`, { 'Content-Type': 'text/plain' });
    expect(reply.status).toBe(200);
    expect(collector.events[0]?.properties).toEqual({ note: '>>>?' });
  });

  it('answers 400 for a form body without data=', async () => {
    const reply = await post(`${collector.url}/e/`, 'payload=1', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/no data= field/);
  });
});
