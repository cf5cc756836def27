// The small synchronous gzip must produce what zlib reads back exactly, for any text.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipSmall } from '../../src/core/gzip-small';

// Compared as UTF-8 bytes: a lone surrogate (cut in half by the generator below) becomes U+FFFD on
// the way in, as with every UTF-8 encoder.
const roundTrip = (text: string) => gunzipSync(gzipSmall(text)).toString('utf8');
const utf8 = (text: string) => new TextDecoder().decode(new TextEncoder().encode(text));

describe('gzipSmall', () => {
  it('round-trips empty, short, repetitive and long inputs through zlib', () => {
    for (const text of ['', 'a', 'aaa', 'abcabcabcabc', 'x'.repeat(100_000), '{"uuid":"1"}'.repeat(5000)]) {
      expect(roundTrip(text)).toBe(text);
    }
  });

  it('round-trips random text across the whole BMP, astral characters and every length/distance code', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let round = 0; round < 20; round++) {
      let text = '';
      while (text.length < 40_000) {
        const r = random();
        // Mix fresh characters with copies of earlier stretches at every distance and length.
        if (r < 0.5 && text.length > 10) {
          const start = Math.floor(random() * text.length);
          text += text.slice(start, start + 3 + Math.floor(random() * 300));
        } else if (r < 0.9) text += String.fromCharCode(32 + Math.floor(random() * 90));
        else text += String.fromCodePoint(Math.floor(random() * 0xffff) & 0xd7ff) + '😀';
      }
      expect(roundTrip(text)).toBe(utf8(text));
    }
  });

  it('compresses a batch of events to a fraction of its size', () => {
    const event = (i: number) => JSON.stringify({ uuid: `0190a0a0-0000-7000-8000-${String(i).padStart(12, '0')}`, event: 'clicked', properties: { i, $current_url: 'https://example.com/a' } });
    const body = Array.from({ length: 500 }, (_, i) => event(i)).join(',');
    expect(gzipSmall(body).length).toBeLessThan(body.length / 5);
  });
});
