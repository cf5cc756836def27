/**
 * A running sha256 of a source's decoded text, readable at any record boundary. The checkpoint
 * stores the digest through its last acknowledged row; --resume recomputes it while skipping those
 * rows and stops if it differs, because skipping rows of changed input would re-send rows under
 * other uuids (or skip rows never sent). The identity check cannot see that for stdin, for
 * --source-id, or for an edit past the first 64 KB that keeps the size.
 *
 * It hashes the text pieces the reader already has, each once: no work per row. Text after the
 * last record end is held back (a digest may still be asked for at that end), which is about what
 * the reader itself holds of an unfinished record.
 */
import { createHash } from 'node:crypto';

export interface InputDigest {
  /** The reader is about to see `text`, the piece after the previous one. */
  add(text: string): void;
  /** Feeds everything up to `offset` (characters since the start) to the hash; offsets never go back. */
  settle(offset: number): void;
  /** Hex digest of all text up to `offset`. */
  through(offset: number): string;
}

export function createInputDigest(): InputDigest {
  const hash = createHash('sha256');
  /** Text from `hashed` on, not hashed yet; the first piece starts at `skipInFirst`. */
  const pending: string[] = [];
  let skipInFirst = 0;
  let hashed = 0;
  let added = 0;

  function settle(offset: number): void {
    if (offset < hashed || offset > added) throw new Error(`input digest: offset ${offset} is outside ${hashed}..${added}`);
    let left = offset - hashed;
    while (left > 0) {
      const first = pending[0]!;
      const available = first.length - skipInFirst;
      if (available <= left) {
        hash.update(skipInFirst === 0 ? first : first.slice(skipInFirst));
        pending.shift();
        skipInFirst = 0;
        left -= available;
      } else {
        hash.update(first.slice(skipInFirst, skipInFirst + left));
        skipInFirst += left;
        left = 0;
      }
    }
    hashed = offset;
  }

  return {
    add(text) {
      if (text === '') return;
      pending.push(text);
      added += text.length;
    },
    settle,
    through(offset) {
      settle(offset);
      return hash.copy().digest('hex');
    },
  };
}

/** The digest of no text: where every source starts. */
export const EMPTY_DIGEST = createHash('sha256').digest('hex');
