/**
 * Every row's uuid is a pure function of its source and its row number, so a row re-sent after a
 * crash, a Ctrl-C or a retry carries the uuid it had the first time and the server can recognise
 * the duplicate.
 *
 * Layout (a UUIDv8, RFC 9562's custom version): 74 bits of the source identity's hash, then the row
 * number in the last 48 bits. Sharing the prefix across a source costs no hashing per row and gzips
 * to almost nothing on the wire; 2^48 rows per source is beyond any file.
 */
export interface RowUuids {
  /** The uuid of row `row` (0-based, counting every record of the source, rejected ones too). */
  uuidOf(row: number): string;
  /** The row a uuid of this source names, or undefined when it is not one of ours. */
  rowOf(uuid: string): number | undefined;
}

export function createRowUuids(identityHex: string): RowUuids {
  const h = identityHex.toLowerCase();
  if (!/^[0-9a-f]{20,}$/.test(h)) throw new Error('a source identity must be at least 20 hex digits');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const prefix = `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-`;
  return {
    uuidOf(row) {
      const hex = row.toString(16);
      return prefix + (hex.length >= 12 ? hex : '000000000000'.slice(hex.length) + hex);
    },
    rowOf(uuid) {
      if (uuid.length !== 36 || !uuid.toLowerCase().startsWith(prefix)) return undefined;
      const row = parseInt(uuid.slice(24), 16);
      return Number.isNaN(row) ? undefined : row;
    },
  };
}
