#!/usr/bin/env node
// Where a script tag's bytes go, by source file (docs/budgets.md uses it to say what each part
// costs). Each byte of the minified file is given to the source file its source map places it in;
// per file it prints the minified bytes (exact: they add up to the file's size) and what removing
// them from the built file saves gzipped (level 9, as the budgets are measured; shares of one
// dictionary, so they add up to less than the whole). Not part of `npm test`: an analysis aid.
//   npm run build && node scripts/size-breakdown.js dist/hogtail.iife.js [depth]
// `depth` groups by the first folders of the path under src/ (1: core/, browser/; 2: browser/features/…).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The numbers of one source-map segment (base64 VLQ). */
function decodeSegment(text) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** For each character of `code`, the index of its source in `map.sources` (-1: none). */
function sourceOfEachChar(code, map) {
  const lines = code.split('\n');
  const owner = new Int32Array(code.length).fill(-1);
  let lineStart = 0;
  let source = 0;
  map.mappings.split(';').forEach((line, index) => {
    const segments = [];
    let column = 0;
    for (const text of line.split(',').filter(Boolean)) {
      const [columnDelta, sourceDelta] = decodeSegment(text);
      column += columnDelta;
      if (sourceDelta !== undefined) source += sourceDelta;
      segments.push([column, sourceDelta === undefined ? -1 : source]);
    }
    segments.forEach(([start, owned], i) => {
      const end = i + 1 < segments.length ? segments[i + 1][0] : lines[index].length;
      owner.fill(owned, lineStart + start, lineStart + end);
    });
    lineStart += (lines[index]?.length ?? 0) + 1;
  });
  return owner;
}

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/size-breakdown.js dist/hogtail.iife.js [depth]');
  process.exit(1);
}
const depth = Number(process.argv[3] ?? 0);
const code = readFileSync(file, 'utf8');
const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
const owner = sourceOfEachChar(code, map);
const partOf = (index) => {
  if (index < 0) return '(no source: the bundle wrapper)';
  const path = map.sources[index].replace(/^.*?src\//, '');
  return depth ? path.split('/').slice(0, depth).join('/') : path;
};
const parts = [...code].map((_, i) => partOf(owner[i]));
const gzipped = (text) => gzipSync(text, { level: 9 }).length;
const whole = gzipped(code);
const rows = [...new Set(parts)].map((part) => {
  const rest = [...code].filter((_, i) => parts[i] !== part).join('');
  return { part, min: code.length - rest.length, gzip: whole - gzipped(rest) };
});
rows.sort((a, b) => b.gzip - a.gzip);
console.log(`${file}: ${code.length} B min, ${whole} B gzip`);
console.log('  gzip B    min B  source');
for (const { part, min, gzip } of rows) console.log(`${String(gzip).padStart(7)} ${String(min).padStart(8)}  ${part}`);
