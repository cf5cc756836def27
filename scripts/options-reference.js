#!/usr/bin/env node
// Writes docs/options.md, the options reference, from the option types' doc comments: each
// property's name, its type as the compiler sees it, its `@default` tag and its description. The
// types are the one source, so the reference cannot drift from the code: test/scripts/
// options-reference.test.ts regenerates it and fails when the committed file differs.
//
//   node scripts/options-reference.js          rewrite docs/options.md
//   node scripts/options-reference.js --check  exit 1 (and say so) when docs/options.md is stale
//
// Types are found by the name their package entry exports (src/browser/index.ts, src/node/index.ts),
// so moving the file that declares one changes nothing here.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
export const OUTPUT = join(root, 'docs/options.md');

const BROWSER = 'src/browser/index.ts';
const NODE = 'src/node/index.ts';

/** One table each: the options of `type` (or of its `property`'s type), exported by `entry`. */
const SECTIONS = [
  {
    heading: 'Browser: `init(apiKey, options)`',
    entry: BROWSER,
    type: 'HogtailConfig',
    intro:
      'The npm entry (`hogtail`, `hogtail/browser`) and the script tags. Names are posthog-js\'s; an option hogtail does not know, or one that asks for a product hogtail does not have, warns once by name. Options marked "hogtail" are hogtail\'s own. The lite script tag acts on fewer of them and says which when given one it leaves out.',
  },
  {
    heading: 'Browser: `autocapture: { … }`',
    entry: BROWSER,
    type: 'AutocaptureConfig',
    intro: 'The object form of `autocapture` (`true` is all defaults, `false` off).',
  },
  { heading: 'Browser: `rageclick: { … }`', entry: BROWSER, type: 'RageclickConfig', intro: 'The object form of `rageclick`.' },
  {
    heading: 'Node and edge: `new PostHog(apiKey, options)`',
    entry: NODE,
    type: 'PostHogOptions',
    nodeOnly: 'PostHogOptions',
    intro:
      '`hogtail/node` takes all of these; `hogtail/edge` takes those not marked "Node only" (given one of those, it says once that it has no effect there). Names are posthog-node\'s where it has one.',
  },
  {
    heading: "Node: `persistence: { type: 'file', … }`",
    entry: NODE,
    type: 'FilePersistenceOptions',
    intro: 'A crash-safe journal instead of the in-memory queue.',
  },
  {
    heading: 'Node and edge: `retry: { … }`',
    entry: NODE,
    type: 'PostHogOptions',
    property: 'retry',
    intro: 'The delivery backoff; `fetchRetryCount` and `fetchRetryDelay` set the usual parts.',
  },
];

const cell = (text) => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
/** A default that is a plain value reads as code; one explained in words stays prose. */
const LITERAL = /^('[^']*'|-?[\d_]+|true|false|\[[^\]]*\])$/;

function loadProgram() {
  const configFile = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  return ts.createProgram([join(root, BROWSER), join(root, NODE)], { ...parsed.options, noEmit: true });
}

function exportedType(program, checker, entry, name) {
  const source = program.getSourceFile(join(root, entry));
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  const exported = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.getName() === name);
  if (!exported) throw new Error(`options-reference: ${entry} does not export ${name}`);
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  return checker.getDeclaredTypeOfSymbol(symbol);
}

function typeOf(checker, property) {
  return checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(property, property.valueDeclaration ?? property.declarations[0]));
}

function describeProperty(checker, property, nodeOnly) {
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  const type = checker.typeToString(typeOf(checker, property), undefined, flags);
  const doc = ts.displayPartsToString(property.getDocumentationComment(checker));
  if (!doc) throw new Error(`options-reference: option ${property.getName()} has no doc comment; say what it does where it is declared`);
  const tag = property.getJsDocTags(checker).find((each) => each.name === 'default');
  const value = tag ? cell(ts.displayPartsToString(tag.text)) : property.flags & ts.SymbolFlags.Optional ? 'not set' : 'required';
  const only = isNodeOnly(property, nodeOnly) ? 'Node only. ' : '';
  return `| \`${property.getName()}\` | \`${cell(type)}\` | ${LITERAL.test(value) ? `\`${value}\`` : value} | ${cell(only + doc)} |`;
}

/** Declared in the Node options interface itself, not in the server options it extends. */
function isNodeOnly(property, nodeOnly) {
  const declaredIn = property.declarations?.[0]?.parent;
  return !!nodeOnly && !!declaredIn && ts.isInterfaceDeclaration(declaredIn) && declaredIn.name.text === nodeOnly;
}

export function renderOptionsReference() {
  const program = loadProgram();
  const checker = program.getTypeChecker();
  const parts = [
    '# Options reference',
    '',
    '<!-- Generated by scripts/options-reference.js from the doc comments of the option types; edit those, then run `node scripts/options-reference.js`. -->',
    '',
    'Every option, its type, its default ("not set" where an unset option has its own meaning) and what it does. Guides: [browser](browser.md), [Node](node.md), [edge](edge.md).',
  ];
  for (const section of SECTIONS) {
    let type = exportedType(program, checker, section.entry, section.type);
    if (section.property) type = typeOf(checker, checker.getPropertyOfType(type, section.property));
    parts.push(
      '',
      `## ${section.heading}`,
      '',
      section.intro,
      '',
      '| Option | Type | Default | What it does |',
      '| --- | --- | --- | --- |',
    );
    // Shared options first, then those only Node has (a stable sort keeps declaration order within each).
    const properties = [...checker.getPropertiesOfType(type)].sort(
      (a, b) => Number(isNodeOnly(a, section.nodeOnly)) - Number(isNodeOnly(b, section.nodeOnly)),
    );
    for (const property of properties) parts.push(describeProperty(checker, property, section.nodeOnly));
  }
  return parts.join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = renderOptionsReference();
  if (process.argv.includes('--check')) {
    const current = readFileSync(OUTPUT, 'utf8');
    if (current !== text) {
      const at = [...text].findIndex((char, index) => char !== current[index]);
      const line = text.slice(0, at).split('\n').length;
      console.error(`options-reference: docs/options.md is stale from line ${line} on; run node scripts/options-reference.js`);
      process.exit(1);
    }
    console.log('options-reference: docs/options.md is up to date');
  } else {
    writeFileSync(OUTPUT, text);
    console.log(`options-reference: wrote ${OUTPUT.slice(root.length)}`);
  }
}
