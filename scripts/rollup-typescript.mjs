// A rollup plugin that turns each TypeScript module into JavaScript on its own (ts.transpileModule),
// with the compiler options of a tsconfig. The output is what a whole-program emit gives, since the
// sources are written for `isolatedModules`; type-checking and the declarations are one `tsc` run
// beside the bundles (scripts/build.js) instead of a full program per rollup build (there are six).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** Compiler options from `tsconfigPath`, for emitting JavaScript with source maps. */
function emitOptions(tsconfigPath) {
  const { config, error } = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(resolve(tsconfigPath)));
  return {
    ...options,
    declaration: false,
    declarationMap: false,
    noEmit: false,
    emitDeclarationOnly: false,
    sourceMap: true,
    inlineSourceMap: false,
    inlineSources: false,
  };
}

export function typescript({ tsconfig }) {
  const compilerOptions = emitOptions(tsconfig);
  return {
    name: 'typescript-transpile',
    // Sources import each other without an extension, as TypeScript resolves them.
    resolveId(source, importer) {
      if (importer === undefined || !source.startsWith('.')) return null;
      const base = resolve(dirname(importer), source);
      const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((candidate) =>
        existsSync(candidate),
      );
      return found ?? null;
    },
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || id.endsWith('.d.ts')) return null;
      const output = ts.transpileModule(code, { compilerOptions, fileName: id });
      const map = output.sourceMapText === undefined ? null : JSON.parse(output.sourceMapText);
      return { code: output.outputText.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'), map };
    },
  };
}
