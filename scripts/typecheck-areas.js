#!/usr/bin/env node
// `npm run typecheck`, after the whole-project check: each platform area on its own libraries
// (src/<area>/tsconfig.json), so the compiler holds the platform rules: core with the ES2022
// library alone (no DOM, no Node types), the page without Node, Node without the DOM.
//
// The areas are programs of one process that share their parsed and bound files, as TypeScript's
// language service shares them between projects: the areas overlap (the page's area holds core,
// the extensions' the page's), and ten `tsc -p` processes parsed lib.dom.d.ts, @types/node and
// core each time. Parsing and binding depend only on the file and its language version, which
// every area shares; the checking, what the areas are for, stays per program.
import { existsSync, readdirSync } from 'node:fs';
import ts from 'typescript';

const areas = readdirSync('src', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`src/${entry.name}/tsconfig.json`))
  .map((entry) => entry.name);

/** Parsed files by name and what the parse depends on, handed to every area's program. */
const parsed = new Map();

function hostSharingFiles(options) {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, shouldCreate) => {
    const how = typeof version === 'object' ? [version.languageVersion, version.impliedNodeFormat, version.jsDocParsingMode] : [version];
    const key = `${fileName}|${how.join('|')}`;
    const file = parsed.get(key) ?? parse(fileName, version, onError, shouldCreate);
    if (file) parsed.set(key, file);
    return file;
  };
  return host;
}

const formatHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: ts.sys.getCurrentDirectory,
  getNewLine: () => ts.sys.newLine,
};

/** The diagnostics `tsc -p src/<area>/tsconfig.json` would print, as it prints them. */
function checkArea(area) {
  const configFile = `src/${area}/tsconfig.json`;
  const problems = [];
  const config = ts.getParsedCommandLineOfConfigFile(configFile, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => problems.push(diagnostic),
  });
  if (config === undefined) return problems;
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
    host: hostSharingFiles(config.options),
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
  return [...problems, ...ts.getPreEmitDiagnostics(program)];
}

let failed = 0;
for (const area of areas) {
  const diagnostics = checkArea(area);
  if (diagnostics.length === 0) continue;
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  console.error(`typecheck: src/${area} does not compile with its own libraries (src/${area}/tsconfig.json)`);
  failed++;
}
console.log(`typecheck: ${areas.length - failed} of ${areas.length} areas compile on their own libraries (${areas.join(', ')})`);
process.exit(failed === 0 ? 0 : 1);
