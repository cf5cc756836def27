import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { aBatch, anEvent, postJson } from './helpers';

let collector: Collector;
beforeEach(async () => {
  collector = await createCollector();
});
afterEach(async () => {
  await collector.close();
});

describe('CORS', () => {
  it.each(['/batch/', '/e/?compression=gzip-js', '/decide/?v=3'])('answers a preflight for %s', async (path) => {
    const reply = await fetch(`${collector.url}${path}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, content-encoding',
      },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(reply.headers.get('access-control-allow-methods')).toMatch(/POST/);
    const allowed = reply.headers.get('access-control-allow-headers')?.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'content-encoding']));
    expect(collector.events).toHaveLength(0);
  });

  it('puts the CORS headers on successes and errors alike', async () => {
    const origin = { 'Content-Type': 'text/plain', Origin: 'https://shop.example' };
    const ok = await postJson(`${collector.url}/batch/`, aBatch([anEvent()]), origin);
    const bad = await postJson(`${collector.url}/batch/`, aBatch([anEvent({ event: '' })]), origin);
    const missing = await postJson(`${collector.url}/nope`, {}, origin);
    for (const reply of [ok, bad, missing]) {
      expect(reply.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    }
    expect([ok.status, bad.status, missing.status]).toEqual([200, 400, 404]);
  });

  it('allows any origin when the request names none', async () => {
    const reply = await postJson(`${collector.url}/batch/`, aBatch([anEvent()]));
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });
});
