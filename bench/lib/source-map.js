// Reads a built file's source map (version 3) so a CPU profile of the minified script tag can name
// the source function each sample fell in. Only what that needs: decode the mappings, and find the
// source position of a generated line and column. Written here so the benches need no dependency.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, value) => [char, value]));

/** The numbers of one mappings segment (base64 VLQ: 5 bits a digit, sign in the lowest bit). */
function decodeSegment(text) {
  const numbers = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = DIGIT.get(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    numbers.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return numbers;
}

/**
 * @param map the parsed `.map` JSON
 * @returns `lookup(line, column)` (both 0-based, as CDP gives them): `{ source, line, name }` of the
 *   last mapping at or before that position on its line (line 1-based), or undefined.
 */
export function createSourceLookup(map) {
  const lines = [];
  let source = 0;
  let sourceLine = 0;
  let name = 0;
  for (const lineText of map.mappings.split(';')) {
    const segments = [];
    let column = 0;
    for (const segmentText of lineText ? lineText.split(',') : []) {
      const fields = decodeSegment(segmentText);
      column += fields[0];
      if (fields.length < 4) continue; // [3], the source column, is not needed
      source += fields[1];
      sourceLine += fields[2];
      if (fields.length > 4) name += fields[4];
      segments.push({ column, source, sourceLine, name: fields.length > 4 ? name : -1 });
    }
    lines.push(segments);
  }
  return (line, column) => {
    const segments = lines[line] ?? [];
    let found;
    for (const segment of segments) {
      if (segment.column > column) break;
      found = segment;
    }
    if (!found) return undefined;
    return { source: map.sources[found.source], line: found.sourceLine + 1, name: map.names[found.name] };
  };
}
