// The edge client's own SHA-1 (local evaluation's bucketing hash without node:crypto) against
// Node's, on every length across the 55/56/64-byte padding edges and on text that is not ASCII.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { sha1Hex } from '../../src/edge/sha1';

const nodeSha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

it('matches node:crypto for every length from 0 to 300 characters', () => {
  for (let length = 0; length <= 300; length++) {
    const text = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7 + length) % 90))).join('');
    expect(sha1Hex(text), `length ${length}`).toBe(nodeSha1(text));
  }
});

it('hashes the UTF-8 bytes of text that is not ASCII, as the server does', () => {
  for (const text of ['flag.用户-42', 'checkout.ümlaut', 'emoji.🚀🚀🚀', 'holdout-7.\u0000\uffff', 'x'.repeat(70) + 'é'.repeat(40)]) {
    expect(sha1Hex(text), text).toBe(nodeSha1(text));
  }
  expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d'); // FIPS 180-4's example
});
