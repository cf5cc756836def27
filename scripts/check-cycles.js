#!/usr/bin/env node
// Import-cycle check (npm run test:cycles): no module of src may reach itself through its imports,
// type-only ones included (a type cycle is still two concepts that cannot be read apart).
// Reads every .ts/.tsx file with the TypeScript parser, follows relative specifiers (import, export
// from, import type, import('…') in code and in types), and reports each strongly connected group.
// Usage: node scripts/check-cycles.js [root, default src]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(process.argv[2] ?? 'src');
const base = process.cwd();

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names: `./x`, `./x.js` (written for ESM) or a folder's index. */
function resolveSpecifier(from, specifier) {
  const bare = resolve(dirname(from), specifier).replace(/\.(js|mjs|cjs|jsx)$/, '');
  const candidates = [bare, ...['.ts', '.tsx', '.mts', '.cts'].flatMap((ext) => [bare + ext, join(bare, `index${ext}`)])];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Every relative specifier the file imports, in any form, type-only included. */
function specifiers(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith('.'));
}

/** Tarjan's strongly connected components; every component of two or more files is a cycle. */
function cycles(graph) {
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const connect = (node) => {
    order.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), order.get(next)));
    }
    if (low.get(node) !== order.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? new Set()).has(node)) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!order.has(node)) connect(node);
  return groups;
}

const name = (path) => relative(base, path);
const graph = new Map();
const files = sourceFiles(root);
for (const file of files) {
  const edges = new Set();
  for (const specifier of specifiers(file)) {
    const target = resolveSpecifier(file, specifier);
    if (target === undefined) continue; // not a source file (JSON, assets): it imports nothing back
    edges.add(target);
  }
  graph.set(file, edges);
}

const found = cycles(graph);
for (const group of found) console.error(`cycles: import cycle among ${group.map(name).join(', ')}`);
console.log(`cycles: ${files.length} files, ${found.length} cycle(s)`);
process.exit(found.length === 0 && files.length > 0 ? 0 : 1);
