/**
 * The linear-time matcher: a parsed regex compiled to a small instruction list (Thompson's
 * construction) and run over the input once, carrying every possible position in the pattern along
 * together instead of trying them one after another. Each input code unit costs at most one visit
 * per instruction, so `^(a+)+$` against 10,000 `a`s and a `!` ends as fast as `^a+$` does; a
 * backtracking engine (JavaScript's RegExp) takes longer than the universe has existed.
 *
 * Only the yes/no answer of RegExp#test is needed (flag conditions never look at what matched), so
 * greedy and lazy repetitions are the same and no capture positions are kept. Instructions live in
 * typed arrays and the run allocates nothing per character: a flag check stays a few microseconds.
 */
import { isWord, type CodeSet } from './code-sets';
import type { Anchor, RegexNode } from './parse';
import { UnsupportedRegexError } from './unsupported';

// Instructions. CHAR reads one code unit of `sets[arg]` and goes on at pc + 1; SPLIT goes on at both
// `arg` and `alt`; JUMP at `arg`; ASSERT checks anchor `arg` and goes on at pc + 1 without reading.
const CHAR = 0;
const SPLIT = 1;
const JUMP = 2;
const ASSERT = 3;
const MATCH = 4;
const ANCHORS: readonly Anchor[] = ['start', 'end', 'boundary', 'not_boundary'];

export interface Program {
  readonly ops: Uint8Array;
  readonly args: Int32Array;
  readonly alts: Int32Array;
  readonly sets: readonly CodeSet[];
  /** Work space of the runs, reused: a run allocates nothing (runs never overlap, they are synchronous). */
  readonly scratch: Scratch;
}

interface Scratch {
  /** seen[pc] is the mark (run base + input position) at which pc was last added: once per position. */
  seen: Int32Array;
  pending: Int32Array;
  threads: Int32Array;
  nextThreads: Int32Array;
  /** Marks of earlier runs are all below this, so `seen` needs no clearing between runs. */
  base: number;
  steps: number;
}

/** Longest program compiled: repetition counts (`\w{1000}`) copy their atom once per count. */
const MAX_INSTRUCTIONS = 10_000;

/** The instructions while they are being written, as plain arrays. */
interface Builder {
  ops: number[];
  args: number[];
  alts: number[];
  sets: CodeSet[];
}

export function compileRegex(root: RegexNode): Program {
  const code: Builder = { ops: [], args: [], alts: [], sets: [] };
  emit(code, root);
  push(code, MATCH);
  const size = code.ops.length;
  const scratch: Scratch = {
    seen: new Int32Array(size).fill(-1),
    pending: new Int32Array(size),
    threads: new Int32Array(size),
    nextThreads: new Int32Array(size),
    base: 0,
    steps: 0,
  };
  return { ops: Uint8Array.from(code.ops), args: Int32Array.from(code.args), alts: Int32Array.from(code.alts), sets: code.sets, scratch };
}

function push(code: Builder, op: number, arg = 0): number {
  if (code.ops.push(op) > MAX_INSTRUCTIONS)
    throw new UnsupportedRegexError(`repetition counts that make it longer than ${MAX_INSTRUCTIONS} steps`);
  code.args.push(arg);
  code.alts.push(0);
  return code.ops.length - 1;
}

/** A SPLIT on to the next instruction; its other way (`alts`) is set once known. */
const split = (code: Builder): number => push(code, SPLIT, code.ops.length + 1);

function emit(code: Builder, node: RegexNode): void {
  switch (node.kind) {
    case 'char':
      push(code, CHAR, code.sets.push(node.set) - 1);
      return;
    case 'assert':
      push(code, ASSERT, ANCHORS.indexOf(node.anchor));
      return;
    case 'seq':
      for (const item of node.items) emit(code, item);
      return;
    case 'alt': {
      const exits: number[] = [];
      node.options.forEach((option, index) => {
        if (index === node.options.length - 1) return emit(code, option);
        const choice = split(code);
        emit(code, option);
        exits.push(push(code, JUMP));
        code.alts[choice] = code.ops.length;
      });
      for (const exit of exits) code.args[exit] = code.ops.length;
      return;
    }
    case 'repeat':
      return emitRepeat(code, node);
  }
}

function emitRepeat(code: Builder, node: Extract<RegexNode, { kind: 'repeat' }>): void {
  const { min, max } = node;
  // x{0}, and any repetition of what matches only the empty string, matches the empty string:
  // nothing to emit (and `(?:){1000000000}` must not loop a billion times).
  if (max === 0 || emitsNothing(node.node)) return;
  for (let count = 0; count < min; count++) emit(code, node.node);
  if (max === Infinity) {
    const loop = split(code);
    emit(code, node.node);
    push(code, JUMP, loop);
    code.alts[loop] = code.ops.length;
    return;
  }
  const optional: number[] = [];
  for (let count = min; count < max; count++) {
    optional.push(split(code));
    emit(code, node.node);
  }
  for (const choice of optional) code.alts[choice] = code.ops.length;
}

function emitsNothing(node: RegexNode): boolean {
  if (node.kind === 'seq') return node.items.every(emitsNothing);
  if (node.kind === 'repeat') return node.max === 0 || emitsNothing(node.node);
  return false;
}

/**
 * Whether the program matches anywhere in `input` (RegExp#test); undefined when that would take
 * more than `maxSteps` instruction visits (a very long value), so the caller can leave it to the server.
 */
export function runProgram(program: Program, input: string, maxSteps: number): boolean | undefined {
  const { ops, args, sets, scratch } = program;
  if (scratch.base > 2_000_000_000 - input.length) {
    scratch.seen.fill(-1);
    scratch.base = 0;
  }
  const base = scratch.base;
  scratch.base += input.length + 1;
  scratch.steps = 0;
  let { threads, nextThreads } = scratch;
  let count = 0;
  // A pattern that starts with `^` can only match from position 0: no thread left means no match.
  const anchored = ops[0] === ASSERT && args[0] === 0;
  for (let at = 0; ; at++) {
    // A match may start at any position: the program's start joins the threads at each one.
    if (!anchored || at === 0) count = follow(program, input, threads, count, 0, at, base);
    if (count < 0) return true;
    if (at === input.length || (anchored && count === 0)) return false;
    if (scratch.steps > maxSteps) return undefined;
    const code = input.charCodeAt(at);
    let nextCount = 0;
    for (let i = 0; i < count && nextCount >= 0; i++) {
      const pc = threads[i]!;
      scratch.steps++;
      if (sets[args[pc]!]!(code)) nextCount = follow(program, input, nextThreads, nextCount, pc + 1, at + 1, base);
    }
    if (nextCount < 0) return true;
    [threads, nextThreads] = [nextThreads, threads];
    count = nextCount;
  }
}

/** Adds to `list` (from `length` on) what `start` leads to at `at` without reading input; -1: a match. */
function follow(program: Program, input: string, list: Int32Array, length: number, start: number, at: number, base: number): number {
  const { ops, args, alts, scratch } = program;
  const { seen, pending } = scratch;
  const mark = base + at;
  if (seen[start] === mark) return length;
  seen[start] = mark;
  let top = 0;
  pending[top++] = start;
  while (top > 0) {
    const pc = pending[--top]!;
    scratch.steps++;
    const op = ops[pc];
    if (op === MATCH) return -1;
    if (op === CHAR) {
      list[length++] = pc;
      continue;
    }
    if (op === ASSERT && !holds(ANCHORS[args[pc]!]!, input, at)) continue;
    // Each way on is added once per position (marked when pushed, so `pending` never overflows).
    const first = op === ASSERT ? pc + 1 : args[pc]!;
    const second = op === SPLIT ? alts[pc]! : -1;
    if (second >= 0 && seen[second] !== mark) {
      seen[second] = mark;
      pending[top++] = second;
    }
    if (seen[first] !== mark) {
      seen[first] = mark;
      pending[top++] = first;
    }
  }
  return length;
}

function holds(anchor: Anchor, input: string, at: number): boolean {
  if (anchor === 'start') return at === 0;
  if (anchor === 'end') return at === input.length;
  const before = at > 0 && isWord(input.charCodeAt(at - 1));
  const after = at < input.length && isWord(input.charCodeAt(at));
  return (before !== after) === (anchor === 'boundary');
}
