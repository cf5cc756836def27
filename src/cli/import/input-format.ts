/**
 * Which reader a source needs: from --format, else from the file name, else from the first
 * character of the (decompressed) content: `[` is a JSON array, `{` NDJSON, anything else CSV.
 */
import { createCsvReader } from './csv-reader';
import { createJsonArrayReader } from './json-array-reader';
import { createNdjsonReader } from './ndjson-reader';
import type { RecordReader, RecordSink } from './record-sink';

export type InputFormat = 'ndjson' | 'csv' | 'json';
export const INPUT_FORMATS: readonly InputFormat[] = ['ndjson', 'csv', 'json'];

/** A format implied by the name; `.json` is sniffed because many "JSON" exports are really NDJSON. */
export function formatFromName(name: string): InputFormat | undefined {
  const bare = name.toLowerCase().replace(/\.(gz|gzip)$/, '');
  if (bare.endsWith('.ndjson') || bare.endsWith('.jsonl')) return 'ndjson';
  if (bare.endsWith('.csv')) return 'csv';
  return undefined;
}

export function createReader(format: InputFormat, sink: RecordSink): RecordReader {
  if (format === 'csv') return createCsvReader(sink);
  if (format === 'json') return createJsonArrayReader(sink);
  return createNdjsonReader(sink);
}

/** Holds text back until the first non-blank character shows the format, then hands over. */
export function createSniffingReader(sink: RecordSink, onDetected?: (format: InputFormat) => void): RecordReader {
  let reader: RecordReader | undefined;
  let held = '';
  return {
    write(text) {
      if (reader) return reader.write(text);
      held += text;
      const first = held.trimStart()[0];
      if (first === undefined) return;
      const format: InputFormat = first === '[' ? 'json' : first === '{' ? 'ndjson' : 'csv';
      onDetected?.(format);
      reader = createReader(format, sink);
      const all = held;
      held = '';
      reader.write(all);
    },
    end() {
      if (reader) reader.end();
    },
    // The held text goes to the reader in one piece, so its count covers everything written.
    recordEnd: () => reader?.recordEnd() ?? 0,
    settledThrough: () => reader?.settledThrough() ?? 0,
  };
}
