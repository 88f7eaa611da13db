/**
 * The building blocks of the harmless-program table: the verdict and check shapes, and the generic
 * checkers (any arguments, option lists that flag writing or running options, output operands).
 */
import type { ShellWord } from './shell-syntax.js';

/** Whether one program invocation is proven harmless, and if not, why. */
export type Verdict = { ok: true } | { ok: false; reason: string };

/** What a program's check sees. */
export interface ProgramCheck {
  /** The program name (base name). */
  program: string;
  /** Arguments after the program. */
  args: readonly ShellWord[];
  /** True when more arguments are appended at run time (`xargs grep x`, `find -exec wc {} +`). */
  extraDynamic: boolean;
  /** True after a `cd` that left the ordinary workspace paths (git would read another repository's configuration). */
  cwdEscaped?: boolean;
  /** Checks a command this program runs itself, without a shell (`find -exec CMD {} ;`). */
  nested(argv: readonly ShellWord[], extraDynamic: boolean): Verdict;
  /** Why the command may not write to this file without confirmation, or undefined. */
  writeTarget(word: ShellWord): string | undefined;
}

/** Decides whether a known program is harmless with the arguments given. */
export type ProgramChecker = (check: ProgramCheck) => Verdict;

/** The verdict of a harmless invocation. */
export const OK: Verdict = { ok: true };
/** A verdict that names why the invocation is not harmless. */
export const no = (reason: string): Verdict => ({ ok: false, reason });

/** Options of a program that make it write, run code or change the machine. */
export interface DangerousOptions {
  /** Short options (single characters) that are dangerous. */
  short?: string;
  /** Long options (with the leading `--`) that are dangerous; any GNU abbreviation of them counts too. */
  long?: readonly string[];
  /** Short options that take a value (the rest of the cluster, or the next word). */
  shortWithValue?: string;
  /** Long options that take a value as the next word. */
  longWithValue?: readonly string[];
  /** Options of a program with single-dash long options (`find -delete`), matched exactly or by prefix. */
  single?: readonly string[];
}

/**
 * Checks options against a program's dangerous ones. An argument that is only known at run time
 * (`$x`, `*`) could itself be a dangerous option, so it is refused unless the program has none.
 * GNU long options may be abbreviated (`--rec` is `--recursive`): any prefix of a dangerous long
 * option is refused.
 */
export function checkOptions(name: string, check: ProgramCheck, danger: DangerousOptions): Verdict {
  const hasDanger = (danger.short?.length ?? 0) > 0 || (danger.long?.length ?? 0) > 0 || (danger.single?.length ?? 0) > 0;
  if (hasDanger && check.extraDynamic)
    return no(`${name} gets arguments only known when it runs, and some ${name} options write or run programs`);
  let endOfOptions = false;
  const args = check.args;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic') {
      if (hasDanger)
        return no(
          `the argument ${word.text} of ${name} is only known when it runs and could be an option that writes or runs programs`,
        );
      continue;
    }
    const text = word.text;
    if (endOfOptions || !text.startsWith('-') || text === '-') continue;
    if (text === '--') {
      endOfOptions = true;
      continue;
    }
    if (text.startsWith('--')) {
      const option = text.split('=')[0]!;
      const hit = danger.long?.find((d) => d.startsWith(option) && option.length > 2);
      if (hit) return no(`${name} ${option}${option === hit ? '' : ` (short for ${hit})`} writes files or runs programs`);
      if (danger.longWithValue?.includes(option) && !text.includes('=')) i += 1;
      continue;
    }
    if (danger.single) {
      const hit = danger.single.find((d) => d === text || (d.startsWith(text) && text.length > 2));
      if (hit) return no(`${name} ${text} writes files, deletes or runs programs`);
    }
    if (/^-\d+$/.test(text)) continue;
    for (let c = 1; c < text.length; c++) {
      const ch = text[c]!;
      if (danger.short?.includes(ch)) return no(`${name} -${ch} writes files or runs programs`);
      if (danger.shortWithValue?.includes(ch)) {
        if (c === text.length - 1) i += 1;
        break;
      }
    }
  }
  return OK;
}

/** A checker that flags the given dangerous options. */
export const options =
  (danger: DangerousOptions): ProgramChecker =>
  (check) =>
    checkOptions(check.program, check, danger);

/** Programs with no option that writes, deletes or runs anything: every argument is harmless. */
export const anyArguments: ProgramChecker = () => OK;

/**
 * Operands of a program that are output files (`uniq IN OUT`, `xxd IN OUT`). Which words are
 * option values depends on each program's own parser (GNU abbreviations like `--skip-f 0`, xxd's
 * single-dash `-len 8`, `-ps`), so no word is taken for an option value here: every non-option
 * word from position `index` on could be the output and must be a file the command may write.
 * Counting too many words only asks more often (`uniq -f 1 .git/x out`); counting too few would
 * let a write through.
 */
export function outputOperand(index: number, danger: DangerousOptions = {}): ProgramChecker {
  return (check) => {
    const flags = checkOptions(check.program, check, danger);
    if (!flags.ok) return flags;
    if (check.extraDynamic) return no(`${check.program} gets arguments only known when it runs; one could be an output file`);
    const candidates: ShellWord[] = [];
    let endOfOptions = false;
    for (const word of check.args) {
      if (!endOfOptions && word.text === '--') endOfOptions = true;
      else if (endOfOptions || word.kind !== 'literal' || !word.text.startsWith('-') || word.text === '-') candidates.push(word);
    }
    for (const out of candidates.slice(index)) {
      const problem = check.writeTarget(out);
      if (problem) return no(`${check.program} ${problem}`);
    }
    return OK;
  };
}
