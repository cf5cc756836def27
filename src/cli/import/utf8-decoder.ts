/**
 * Bytes to text for the importer, noting where the bytes were not UTF-8. Node's decoders put
 * U+FFFD in place of invalid bytes without a word, and a U+FFFD that was really in the file looks
 * the same afterwards; an import must not store replaced text forever, so the offsets (in UTF-16
 * characters of the text returned) of every replacement are kept and the rows there rejected.
 *
 * Valid input, nearly all of it, costs one native check per piece; only a piece that fails it is
 * walked byte by byte to find where.
 */
import { isUtf8 } from 'node:buffer';

export interface Utf8Decoder {
  /** Text of the complete characters so far; a character cut at the end of `bytes` waits for the next piece. */
  write(bytes: Buffer): string;
  /** Whatever is left (an incomplete character at the end of the input is invalid). */
  end(): string;
  /** Offsets into all the text returned so far where invalid bytes were replaced, ascending. */
  readonly invalidAt: number[];
}

const EMPTY = Buffer.alloc(0);

export function createUtf8Decoder(): Utf8Decoder {
  let carry: Buffer = EMPTY;
  let produced = 0;
  const invalidAt: number[] = [];

  function decode(bytes: Buffer): string {
    const text = bytes.toString('utf8');
    if (!isUtf8(bytes)) for (const offset of replacementOffsets(bytes)) invalidAt.push(produced + offset);
    produced += text.length;
    return text;
  }

  return {
    write(bytes) {
      const all = carry.length === 0 ? bytes : Buffer.concat([carry, bytes]);
      const cut = incompleteTail(all);
      carry = cut === all.length ? EMPTY : Buffer.from(all.subarray(cut));
      return decode(all.subarray(0, cut));
    },
    end() {
      const rest = carry;
      carry = EMPTY;
      return rest.length === 0 ? '' : decode(rest);
    },
    invalidAt,
  };
}

/** Where a character that the end of `bytes` cuts off begins; bytes.length when none is cut. */
function incompleteTail(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 4; i--) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return bytes.length - i < length ? i : bytes.length;
  }
  return bytes.length;
}

/**
 * Offsets (in UTF-16 units of the decoded text) of the U+FFFD the decoder writes for invalid
 * bytes: one per maximal invalid subpart, as the WHATWG Encoding Standard and V8 decode.
 */
function replacementOffsets(bytes: Buffer): number[] {
  const found: number[] = [];
  let units = 0;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      units++;
      continue;
    }
    const [continuations, lower, upper] = sequenceOf(lead);
    let read = 1;
    while (read <= continuations) {
      const next = bytes[i + read];
      if (next === undefined || next < (read === 1 ? lower : 0x80) || next > (read === 1 ? upper : 0xbf)) break;
      read++;
    }
    if (continuations > 0 && read > continuations) {
      units += continuations === 3 ? 2 : 1;
    } else {
      found.push(units);
      units++;
    }
    i += read;
  }
  return found;
}

/** Continuation bytes a lead byte needs, and the range its first continuation must be in (0 for an invalid lead). */
function sequenceOf(lead: number): [number, number, number] {
  if (lead >= 0xc2 && lead <= 0xdf) return [1, 0x80, 0xbf];
  if (lead >= 0xe0 && lead <= 0xef) return [2, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf];
  if (lead >= 0xf0 && lead <= 0xf4) return [3, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf];
  return [0, 0, 0];
}
