// src/core must run anywhere: DESIGN §1 forbids platform globals and node: modules there.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = new URL('../../src/core/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

it('src/core never touches window, document, navigator, process, Buffer or node: modules', () => {
  const offenders: string[] = [];
  for (const file of files(root)) {
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '')
      .replace(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g, (literal) => (literal.includes('node:') ? literal : "''"));
    for (const name of ['window', 'document', 'navigator', 'process', 'Buffer']) {
      if (new RegExp(`\\b${name}\\b`).test(code)) offenders.push(`${file}: ${name}`);
    }
    if (/from\s+['"]node:|require\(['"]node:/.test(code)) offenders.push(`${file}: node: import`);
  }
  expect(files(root).length).toBeGreaterThan(5);
  expect(offenders).toEqual([]);
});
