/**
 * A small command-line parser shared by `hogtail import` and `hogtail capture`: `--name value`,
 * `--name=value`, repeatable flags, booleans, and `--` to end the flags. Unknown flags are errors,
 * because a mistyped `--resum` silently starting a fresh migration would send everything twice.
 * `-h` is the one short flag: it is what people type for help.
 */
export type FlagKind = 'string' | 'boolean' | 'list';

export interface FlagSpec {
  kind: FlagKind;
  help: string;
  /** Shown in help instead of the kind, e.g. `FILE`. */
  value?: string;
}

export interface ParsedFlags {
  strings: Map<string, string>;
  booleans: Set<string>;
  lists: Map<string, string[]>;
  positionals: string[];
}

/** The command line is wrong; the message says how, and the command exits 2. */
export class UsageError extends Error {
  override name = 'UsageError' as const;
}

export function parseFlags(args: readonly string[], specs: Record<string, FlagSpec>): ParsedFlags {
  const parsed: ParsedFlags = { strings: new Map(), booleans: new Set(), lists: new Map(), positionals: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      parsed.positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-h' && specs.help?.kind === 'boolean') {
      parsed.booleans.add('help');
      continue;
    }
    // A lone '-' is the conventional name for stdin.
    if (!arg.startsWith('--')) {
      parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = specs[name];
    if (spec === undefined) throw new UsageError(`unknown option --${name}`);
    if (spec.kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      parsed.booleans.add(name);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = args[i + 1];
      i++;
    }
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (spec.kind === 'list') {
      const list = parsed.lists.get(name) ?? [];
      list.push(value);
      parsed.lists.set(name, list);
    } else {
      if (parsed.strings.has(name)) throw new UsageError(`--${name} was given twice`);
      parsed.strings.set(name, value);
    }
  }
  return parsed;
}

export function positiveInteger(flags: ParsedFlags, name: string, fallback: number): number {
  const text = flags.strings.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive whole number; got ${JSON.stringify(text)}`);
  return value;
}

/** `notes`: paragraphs after the options (how input is read, exit codes). */
export function helpText(usage: string, specs: Record<string, FlagSpec>, notes?: string): string {
  const rows = Object.entries(specs).map(([name, spec]) => {
    const value = spec.kind === 'boolean' ? '' : ` ${spec.value ?? 'VALUE'}`;
    return [`  --${name}${value}`, spec.help] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const options = `${usage}\n\nOptions:\n${rows.map(([left, help]) => left.padEnd(width) + help).join('\n')}\n`;
  return notes === undefined ? options : `${options}\n${notes}\n`;
}
