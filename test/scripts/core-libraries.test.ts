// Core type-checks with the ES2022 library alone plus the few universal globals it declares
// (src/core/tsconfig.json, src/core/globals.d.ts; `npm run typecheck` runs it): a page or Node
// global in core is a compile error, a declared universal one is not. Checked on small snippets
// compiled with core's own options.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';
import { repoRoot } from '../support/built';

const dir = mkdtempSync(join(tmpdir(), 'hogtail-core-lib-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The compiler's complaints about `code`, compiled as a core file with core's options. */
function errorsOf(code: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(repoRoot, 'src/core/tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!;
  const file = join(dir, `snippet-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, code);
  const program = ts.createProgram([file, join(repoRoot, 'src/core/globals.d.ts')], { ...config.options, rootDir: undefined });
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

it('core has the universal globals it declares', () => {
  expect(
    errorsOf(
      'export const t = setTimeout(() => {}, 1);\nqueueMicrotask(() => clearTimeout(t));\nexport const n = new TextEncoder().encode("x").length;\nconsole.warn(crypto.getRandomValues(new Uint32Array(1)));\n',
    ),
  ).toEqual([]);
});

it.each([
  ['a page global', 'export const title = document.title;', "Cannot find name 'document'"],
  ['a Node global', 'export const cwd = process.cwd();', "Cannot find name 'process'"],
  ['a Node type', 'export const b: Buffer | undefined = undefined;', "Cannot find name 'Buffer'"],
  ['a DOM type', 'export let w: Window | undefined;', "Cannot find name 'Window'"],
])('%s in core is a compile error', (_, code, message) => {
  expect(errorsOf(code).join('\n')).toContain(message);
});
