// Type test (issue 28): an app written for posthog-js compiles with `'posthog-js'` replaced by
// `'hogtail'`, both where `hogtail` resolves to the page client and where it resolves to the
// server-rendering entry (the package's `node` condition), which must export the same names.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = join(root, 'test/browser/fixtures/posthog-style-imports.ts');

function errorsAgainst(entry: string): string {
  const program = ts.createProgram([fixture], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    paths: { hogtail: [join(root, entry)] },
  });
  const file = program.getSourceFile(fixture)!;
  const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
}

it.each(['src/browser/index.ts', 'src/ssr/index.ts'])('posthog-js imports, options and members type-check against %s', (entry) => {
  expect(errorsAgainst(entry)).toBe('');
});
