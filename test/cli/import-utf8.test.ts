// The importer's UTF-8 decoder: the same text as Node's decoder, however the bytes are cut, plus
// the exact offsets where invalid bytes became U+FFFD (a U+FFFD that was in the input is not one).
import { describe, expect, it } from 'vitest';
import { createUtf8Decoder } from '../../src/cli/import/utf8-decoder';

function decodeInPieces(bytes: Buffer, cut: number): { text: string; invalidAt: number[] } {
  const decoder = createUtf8Decoder();
  let text = '';
  for (let at = 0; at < bytes.length; at += cut) text += decoder.write(bytes.subarray(at, at + cut));
  text += decoder.end();
  return { text, invalidAt: decoder.invalidAt };
}

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('UTF-8 decoder', () => {
  it('finds every replacement in random bytes, cut anywhere, and decodes them as Node does', () => {
    const next = random(7);
    // Mostly bytes that start or continue multi-byte characters, where the edge cases live.
    const alphabet = [0x41, 0x0a, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
    for (let round = 0; round < 300; round++) {
      const bytes = Buffer.from(Array.from({ length: 1 + Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]!));
      const expected = bytes.toString('utf8');
      // The alphabet cannot spell EF BF BD, so every U+FFFD here stands for invalid bytes.
      const positions: number[] = [];
      for (let i = 0; i < expected.length; i++) if (expected[i] === '\ufffd') positions.push(i);
      for (const cut of [1, 2, 3, 5, bytes.length]) {
        const decoded = decodeInPieces(bytes, cut);
        expect(decoded.text, `${bytes.toString('hex')} in pieces of ${cut}`).toBe(expected);
        expect(decoded.invalidAt, `${bytes.toString('hex')} in pieces of ${cut}`).toEqual(positions);
      }
    }
  });

  it('reports nothing for valid text, a real U+FFFD and characters of every length included', () => {
    const bytes = Buffer.from('a é € 😀 \ufffd z', 'utf8');
    for (const cut of [1, 2, 3, bytes.length]) expect(decodeInPieces(bytes, cut)).toEqual({ text: 'a é € 😀 \ufffd z', invalidAt: [] });
  });
});
