#!/usr/bin/env node
// Makes the emitted declarations work under every TypeScript module resolution, run after rollup.
//
// tsc writes `from './client'` into dist/types. Under `moduleResolution: node16 | nodenext` an ESM
// declaration needs the extension (`./client.js`), and a package of `"type": "module"` has only ESM
// declarations, which a CommonJS consumer may not `require` (TS1479). So:
//   1. every relative specifier in dist/types/**/*.d.ts gets its explicit `.js` (or `/index.js`);
//   2. each file gets a `.d.cts` twin whose specifiers say `.cjs`, for package.json's `require`
//      conditions (TypeScript maps `./x.cjs` to `./x.d.cts`).
// Bundler and node10 resolution accept both forms, so nothing else changes for them.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'dist/types');
// `from '…'`, `import('…')`, `import '…'` and `export … from '…'`, single or double quoted.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\2/g;

function declarationFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return declarationFiles(path);
    return name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The specifier without extension as a file (`./x`) or a folder (`./x/index`), or undefined. */
function target(fromFile, specifier) {
  const bare = specifier.replace(/\.(js|cjs|mjs)$/, '');
  const base = resolve(dirname(fromFile), bare);
  if (existsSync(`${base}.d.ts`)) return bare;
  if (existsSync(join(base, 'index.d.ts'))) return `${bare}/index`;
  return undefined;
}

function rewrite(file, text, extension) {
  return text.replace(SPECIFIER, (whole, lead, quote, specifier) => {
    const resolved = target(file, specifier);
    if (resolved === undefined) throw new Error(`${file}: cannot resolve ${specifier} among the declarations`);
    return `${lead}${quote}${resolved}${extension}${quote}`;
  });
}

if (!existsSync(root)) {
  console.error(`declarations: ${root} does not exist; run rollup first`);
  process.exit(1);
}
const files = declarationFiles(root);
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, rewrite(file, text, '.js'));
  writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), rewrite(file, text, '.cjs'));
}
console.log(`declarations: ${files.length} files with explicit extensions, each with a .d.cts twin`);
