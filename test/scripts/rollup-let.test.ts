// The script tags' build turns every `const` declaration into `let` before the minifier
// (scripts/rollup-let.mjs). That is safe only if the code behaves the same (block scope, one
// binding per loop iteration) and the source map still points at the right places; this bundles a
// small module through rollup with the plugin and checks both, and that text which merely says
// "const" is left alone.
import { rollup, type Plugin } from 'rollup';
import { parseAst } from 'rollup/parseAst';
import { describe, expect, it } from 'vitest';
import { constToLet } from '../../scripts/rollup-let.mjs';

const SOURCE = `
const label = 'const stays in strings';
const readers = [];
for (const n of [1, 2, 3]) {
  const twice = n * 2;
  readers.push(() => twice);
}
{
  const label = 'inner';
  readers.push(() => label);
}
export const result = { label, values: readers.map((read) => read()), pattern: /const/.source };
`;

/** The kinds of the variable declarations in `code`, in order. */
function declarationKinds(code: string): string[] {
  const kinds: string[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if ((node as { type?: unknown }).type === 'VariableDeclaration') kinds.push((node as { kind: string }).kind);
    for (const value of Object.values(node)) for (const child of Array.isArray(value) ? value : [value]) visit(child);
  };
  visit(parseAst(code));
  return kinds;
}

/** The module bundled as an IIFE, with and without the plugin. */
async function bundle(plugins: Plugin[]) {
  const build = await rollup({
    input: 'entry',
    plugins: [{ name: 'entry', resolveId: (id: string) => id, load: () => SOURCE }],
  });
  const { output } = await build.generate({ format: 'iife', name: 'probe', sourcemap: true, plugins });
  return output[0];
}

describe('const-to-let', () => {
  it('leaves no const declaration, keeps every position, and the code behaves the same', async () => {
    const plain = await bundle([]);
    const rewritten = await bundle([constToLet()]);
    expect(declarationKinds(plain.code)).toContain('const');
    expect(declarationKinds(rewritten.code)).not.toContain('const');
    expect(declarationKinds(rewritten.code).length).toBe(declarationKinds(plain.code).length);
    expect(rewritten.code).toContain("'const stays in strings'");
    expect(rewritten.code.length).toBe(plain.code.length);
    expect(rewritten.code.replace(/let {2}/g, 'const')).toBe(plain.code);
    expect(rewritten.map?.mappings).toBe(plain.map?.mappings);
    const run = (code: string) => new Function(`${code}; return probe.result;`)();
    expect(run(rewritten.code)).toEqual({ label: 'const stays in strings', values: [2, 4, 6, 'inner'], pattern: 'const' });
    expect(run(rewritten.code)).toEqual(run(plain.code));
  });
});
