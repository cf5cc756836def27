/**
 * The linear-time matcher: a parsed regex compiled to a small instruction list (Thompson's
 * construction) and run over the input once, carrying every possible position in the pattern along
 * together instead of trying them one after another. Each input code unit costs at most one visit
 * per instruction, so `^(a+)+$` against 10,000 `a`s and a `!` ends as fast as `^a+$` does; a
 * backtracking engine (JavaScript's RegExp) takes longer than the universe has existed.
 *
 * Only the yes/no answer of RegExp#test is needed (flag conditions never look at what matched), so
 * greedy and lazy repetitions are the same and no capture positions are kept.
 */
import { isWord, type CodeSet } from './code-sets';
import type { Anchor, RegexNode } from './parse';
import { UnsupportedRegexError } from './unsupported';

type Instruction =
  | { op: 'char'; set: CodeSet }
  | { op: 'split'; to: number; or: number }
  | { op: 'jump'; to: number }
  | { op: 'assert'; anchor: Anchor }
  | { op: 'match' };

export type Program = readonly Instruction[];

/** Longest program compiled: repetition counts (`\w{1000}`) copy their atom once per count. */
const MAX_INSTRUCTIONS = 10_000;

export function compileRegex(root: RegexNode): Program {
  const program: Instruction[] = [];
  const push = (instruction: Instruction): number => {
    if (program.push(instruction) > MAX_INSTRUCTIONS) {
      throw new UnsupportedRegexError(`repetition counts that make it longer than ${MAX_INSTRUCTIONS} steps`);
    }
    return program.length - 1;
  };
  const split = (): { op: 'split'; to: number; or: number } => {
    const instruction = { op: 'split' as const, to: program.length + 1, or: -1 };
    push(instruction);
    return instruction;
  };
  const emit = (node: RegexNode): void => {
    switch (node.kind) {
      case 'char':
        push({ op: 'char', set: node.set });
        return;
      case 'assert':
        push({ op: 'assert', anchor: node.anchor });
        return;
      case 'seq':
        node.items.forEach(emit);
        return;
      case 'alt': {
        const exits: Array<{ op: 'jump'; to: number }> = [];
        node.options.forEach((option, index) => {
          if (index === node.options.length - 1) return emit(option);
          const choice = split();
          emit(option);
          const exit = { op: 'jump' as const, to: -1 };
          push(exit);
          exits.push(exit);
          choice.or = program.length;
        });
        for (const exit of exits) exit.to = program.length;
        return;
      }
      case 'repeat':
        return emitRepeat(node, emit, split, push, program);
    }
  };
  emit(root);
  push({ op: 'match' });
  return program;
}

function emitRepeat(
  node: Extract<RegexNode, { kind: 'repeat' }>,
  emit: (node: RegexNode) => void,
  split: () => { op: 'split'; to: number; or: number },
  push: (instruction: Instruction) => number,
  program: Instruction[],
): void {
  const { min, max } = node;
  // x{0}, and any repetition of what matches only the empty string, matches the empty string:
  // nothing to emit (and `(?:){1000000000}` must not loop a billion times).
  if (max === 0 || emitsNothing(node.node)) return;
  for (let count = 0; count < min; count++) emit(node.node);
  if (max === Infinity) {
    const loop = program.length;
    const choice = split();
    emit(node.node);
    push({ op: 'jump', to: loop });
    choice.or = program.length;
    return;
  }
  const optional = [];
  for (let count = min; count < max; count++) {
    optional.push(split());
    emit(node.node);
  }
  for (const choice of optional) choice.or = program.length;
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
  // seen[pc] is the input position at which pc was last added: each is added once per position.
  const seen = new Int32Array(program.length).fill(-1);
  const pending: number[] = [];
  let steps = 0;
  /** Adds what `start` leads to at position `at` without reading input; true when that reaches a match. */
  const follow = (threads: number[], start: number, at: number): boolean => {
    pending.push(start);
    while (pending.length > 0) {
      const pc = pending.pop()!;
      if (seen[pc] === at) continue;
      seen[pc] = at;
      steps++;
      const instruction = program[pc]!;
      switch (instruction.op) {
        case 'match':
          pending.length = 0;
          return true;
        case 'char':
          threads.push(pc);
          break;
        case 'jump':
          pending.push(instruction.to);
          break;
        case 'split':
          pending.push(instruction.or, instruction.to);
          break;
        case 'assert':
          if (holds(instruction.anchor, input, at)) pending.push(pc + 1);
      }
    }
    return false;
  };
  let threads: number[] = [];
  for (let at = 0; ; at++) {
    // A match may start at any position: the program's start joins the threads at each one.
    if (follow(threads, 0, at)) return true;
    if (at === input.length) return false;
    if (steps > maxSteps) return undefined;
    const code = input.charCodeAt(at);
    const next: number[] = [];
    for (const pc of threads) {
      steps++;
      if ((program[pc] as { set: CodeSet }).set(code) && follow(next, pc + 1, at + 1)) return true;
    }
    threads = next;
  }
}

function holds(anchor: Anchor, input: string, at: number): boolean {
  if (anchor === 'start') return at === 0;
  if (anchor === 'end') return at === input.length;
  const before = at > 0 && isWord(input.charCodeAt(at - 1));
  const after = at < input.length && isWord(input.charCodeAt(at));
  return (before !== after) === (anchor === 'boundary');
}
