/**
 * The one command-line parser of every `hogtail` command (import, capture, dev, api), on Node's
 * `util.parseArgs`: `--name value`, `--name=value`, repeatable list flags, booleans, `--` to end
 * the flags, and `-h` for help. It is strict: an unknown flag, a flag without its value, a value
 * given to a switch, a single-value flag given twice, and an ambiguous `--host --api-key k` (is
 * `--api-key` the host?) are all UsageErrors that say what to type instead, because a mistyped
 * `--resum` silently starting a fresh migration would send everything twice.
 *
 * parseArgs runs in its lenient mode only to tokenise; the checks are ours, so every command
 * words its errors the same way and `hogtail api` can pass unknown flags on as query parameters.
 */
import { parseArgs } from 'node:util';

export type FlagKind = 'string' | 'boolean' | 'list';

export interface FlagSpec {
  kind: FlagKind;
  help: string;
  /** Shown in help instead of the kind, e.g. `FILE`. */
  value?: string;
}

export type FlagTable = Record<string, FlagSpec>;

export interface ParsedFlags {
  strings: Map<string, string>;
  booleans: Set<string>;
  lists: Map<string, string[]>;
  positionals: string[];
  /** With `passThrough`: flags not in the table, by name, e.g. `--prompt x` → prompt: x. */
  extra: Map<string, string>;
}

export interface ParseOptions {
  /** Unknown `--name value` flags go to `extra` instead of being an error. */
  passThrough?: boolean;
  /** Positional arguments allowed. Default true. */
  positionals?: boolean;
}

/** The command line is wrong; the message says how, and the command exits 2. */
export class UsageError extends Error {
  override name = 'UsageError' as const;
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

export function parseFlags(args: readonly string[], specs: FlagTable, options: ParseOptions = {}): ParsedFlags {
  const config: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, spec] of Object.entries(specs)) {
    config[name] = { type: spec.kind === 'boolean' ? 'boolean' : 'string', multiple: spec.kind === 'list' };
    if (name === 'help' && spec.kind === 'boolean') config[name]!.short = 'h';
  }
  const { tokens } = parseArgs({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true });
  const parsed: ParsedFlags = { strings: new Map(), booleans: new Set(), lists: new Map(), positionals: [], extra: new Map() };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'positional') {
      if (options.positionals === false) throw new UsageError(`unexpected argument '${token.value}'`);
      parsed.positionals.push(token.value);
    } else if (token.kind === 'option') {
      const spec = specs[token.name];
      if (spec === undefined) {
        i = takeUnknown(tokens, i, specs, options, parsed);
        continue;
      }
      record(token, spec, parsed);
    }
  }
  return parsed;
}

function record(token: Extract<Token, { kind: 'option' }>, spec: FlagSpec, parsed: ParsedFlags): void {
  const name = token.name;
  if (spec.kind === 'boolean') {
    if (token.value !== undefined) throw new UsageError(`--${name} takes no value`);
    parsed.booleans.add(name);
    return;
  }
  const value = token.value;
  if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
  if (token.inlineValue === false && value.startsWith('-') && value !== '-') {
    throw new UsageError(
      `--${name} needs a value, but is followed by ${value}; to give a value that starts with '-', write --${name}=${value}`,
    );
  }
  if (spec.kind === 'list') {
    const list = parsed.lists.get(name) ?? [];
    list.push(value);
    parsed.lists.set(name, list);
    return;
  }
  if (parsed.strings.has(name)) throw new UsageError(`--${name} was given twice`);
  parsed.strings.set(name, value);
}

/** An option not in the table: an error, or with passThrough its value; returns the last token used. */
function takeUnknown(tokens: Token[], index: number, specs: FlagTable, options: ParseOptions, parsed: ParsedFlags): number {
  const token = tokens[index] as Extract<Token, { kind: 'option' }>;
  if (!options.passThrough || !token.rawName.startsWith('--')) {
    const hint = closest(token.name, Object.keys(specs));
    throw new UsageError(`unknown option ${token.rawName}${hint === undefined ? '' : `; did you mean --${hint}?`}`);
  }
  if (token.value !== undefined) {
    parsed.extra.set(token.name, token.value);
    return index;
  }
  // Lenient parseArgs reads `--prompt x` as a switch and a positional: the positional is its value.
  const next = tokens[index + 1];
  if (next?.kind !== 'positional' || next.index !== token.index + 1) throw new UsageError(`--${token.name} needs a value`);
  parsed.extra.set(token.name, next.value);
  return index + 1;
}

/** The known name a typo most likely meant: one edit away, or a prefix of it. */
function closest(name: string, known: readonly string[]): string | undefined {
  return known.find((candidate) => candidate.startsWith(name) || editDistance(name, candidate) <= 2);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

export function positiveInteger(flags: ParsedFlags, name: string, fallback: number): number {
  const text = flags.strings.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive whole number; got ${JSON.stringify(text)}`);
  return value;
}

/** `notes`: paragraphs after the options (how input is read, exit codes). */
export function helpText(usage: string, specs: FlagTable, notes?: string): string {
  const rows = Object.entries(specs).map(([name, spec]) => {
    const value = spec.kind === 'boolean' ? '' : ` ${spec.value ?? 'VALUE'}`;
    return [`  --${name}${value}`, spec.help] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const options = `${usage}\n\nOptions:\n${rows.map(([left, help]) => left.padEnd(width) + help).join('\n')}\n`;
  return notes === undefined ? options : `${options}\n${notes}\n`;
}
