/**
 * `tee`, `sed`, `awk` and `find`: read-only unless their operands, scripts or actions write
 * files, delete them or run programs; these checkers read the scripts to tell.
 */
import { no, OK } from './program-checks.js';
import type { ProgramChecker, Verdict } from './program-checks.js';
import type { ShellWord } from './shell-syntax.js';

export const tee: ProgramChecker = (check) => {
  if (check.extraDynamic) return no('tee gets file names only known when it runs');
  let endOfOptions = false;
  for (const word of check.args) {
    if (!endOfOptions && word.kind === 'literal' && word.text === '--') {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && word.kind === 'literal' && word.text.startsWith('-') && word.text !== '-') {
      if (!/^(-[aip]+|--append|--ignore-interrupts|--output-error(=.*)?)$/.test(word.text))
        return no(`tee ${word.text} is not a known tee option`);
      continue;
    }
    const problem = check.writeTarget(word);
    if (problem) return no(`tee ${problem}`);
  }
  return OK;
};

/** True when a sed script only prints, deletes lines, substitutes or transliterates (no w, e, r, …). */
export function isSimpleSedScript(script: string): boolean {
  let i = 0;
  const s = script;
  const skipRegex = (delimiter: string): boolean => {
    while (i < s.length) {
      if (s[i] === '\\') i += 2;
      else if (s[i] === delimiter) {
        i += 1;
        return true;
      } else if (s[i] === '\n') return false;
      else i += 1;
    }
    return false;
  };
  const address = (): boolean => {
    if (/\d/.test(s[i] ?? '')) {
      while (/[\d~]/.test(s[i] ?? '')) i += 1;
      return true;
    }
    if (s[i] === '$') {
      i += 1;
      return true;
    }
    if (s[i] === '/') {
      i += 1;
      if (!skipRegex('/')) return false;
      while (/[IM]/.test(s[i] ?? '')) i += 1;
      return true;
    }
    return true;
  };
  while (i < s.length) {
    while (/[\s;]/.test(s[i] ?? '')) i += 1;
    if (i >= s.length) break;
    if (!address()) return false;
    if (s[i] === ',') {
      i += 1;
      if (s[i] === '+') i += 1;
      if (!address()) return false;
    }
    while (s[i] === ' ') i += 1;
    if (s[i] === '!') i += 1;
    while (s[i] === ' ') i += 1;
    const command = s[i];
    if (command === undefined) return false;
    i += 1;
    if ('pdqQ=nNgGhHxlzPD{}'.includes(command)) {
      while (/\d/.test(s[i] ?? '')) i += 1;
      continue;
    }
    if (command === 's' || command === 'y') {
      const delimiter = s[i];
      if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') return false;
      i += 1;
      if (!skipRegex(delimiter) || !skipRegex(delimiter)) return false;
      if (command === 's') {
        // Flags: g, p, a number, i/I, m/M. `w FILE` writes and `e` executes: refused.
        while (/[gpiImM\d]/.test(s[i] ?? '')) i += 1;
      }
      if (i < s.length && !/[\s;}]/.test(s[i]!)) return false;
      continue;
    }
    return false;
  }
  return true;
}

export const sed: ProgramChecker = (check) => {
  if (check.extraDynamic) return no('sed gets arguments only known when it runs');
  const scripts: string[] = [];
  const args = check.args;
  // GNU sed permutes: options after the script and the files still count (`sed s/a/b/ f -i`).
  const operands: ShellWord[] = [];
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic') return no(`the argument ${word.text} of sed is only known when it runs`);
    const text = word.text;
    if (endOfOptions || !text.startsWith('-') || text === '-') {
      operands.push(word);
      continue;
    }
    if (text === '--') {
      endOfOptions = true;
      continue;
    }
    if (text === '-e' || text === '--expression') {
      const next = args[++i];
      if (!next || next.kind !== 'literal') return no('the sed script is only known when it runs');
      scripts.push(next.text);
      continue;
    }
    if (text.startsWith('--expression=')) {
      scripts.push(text.slice('--expression='.length));
      continue;
    }
    if (
      /^-[nErsuz]+$/.test(text) ||
      /^--(quiet|silent|regexp-extended|separate|unbuffered|null-data|posix|debug|sandbox)$/.test(text)
    )
      continue;
    if (/^-[nErsuz]*e./.test(text)) {
      scripts.push(text.slice(text.indexOf('e') + 1));
      continue;
    }
    if (/^-[nErsuz]*i/.test(text) || text.startsWith('--in')) return no('sed -i edits files in place');
    if (/^-[nErsuz]*f/.test(text) || text.startsWith('--file'))
      return no('sed -f runs a script from a file, which is not checked here');
    return no(`sed ${text} is not a known sed option`);
  }
  if (scripts.length === 0) {
    const script = operands[0];
    if (!script) return OK;
    if (script.kind !== 'literal') return no('the sed script is only known when it runs');
    scripts.push(script.text);
  }
  for (const script of scripts) {
    if (!isSimpleSedScript(script))
      return no(
        `the sed script ${JSON.stringify(script)} uses commands that can write files or run programs (only p, d, q, s and y without w/e flags are checked)`,
      );
  }
  return OK;
};

export const awk: ProgramChecker = (check) => {
  if (check.extraDynamic) return no('awk gets arguments only known when it runs');
  const args = check.args;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic') return no(`the argument ${word.text} of awk is only known when it runs`);
    const text = word.text;
    if (text === '-F' || text === '-v') {
      i += 1;
      continue;
    }
    if (/^-[Fv]./.test(text)) continue;
    if (text === '--') {
      const program = args[i + 1];
      return program ? awkProgram(program) : OK;
    }
    if (text.startsWith('-') && text !== '-') return no(`awk ${text} is not checked (it may load code from a file)`);
    return awkProgram(word);
  }
  return OK;
};

function awkProgram(program: ShellWord): Verdict {
  if (program.kind !== 'literal') return no('the awk program is only known when it runs');
  // system(), pipes, output redirection and getline can run programs or write files; `>` also
  // rejects comparisons, which then need a confirmation: the cost of proving instead of guessing.
  if (/system|\||>|getline|@load|@include|ENVIRON\s*\[/.test(program.text)) {
    return no('the awk program may run commands or write files (system, |, >, getline): it is not checked further');
  }
  return OK;
}

export const find: ProgramChecker = (check) => {
  if (check.extraDynamic) return no('find gets arguments only known when it runs');
  const args = check.args;
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-O\d$|^-D$/.test(args[i]!.text)) i += args[i]!.text === '-D' ? 2 : 1;
  const roots: ShellWord[] = [];
  while (i < args.length && !args[i]!.text.startsWith('-') && args[i]!.text !== '(' && args[i]!.text !== '!')
    roots.push(args[i++]!);
  if (roots.some((r) => r.kind === 'dynamic'))
    return no('a starting point of find is only known when it runs and could be an action');
  // What `{}` becomes: a path under a starting point (never an option when every root is a plain path).
  const placeholder: ShellWord['kind'] = roots.every((r) => !r.text.startsWith('-')) ? 'path-like' : 'dynamic';
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic')
      return no(`the find argument ${word.text} is only known when it runs and could be an action such as -delete`);
    const text = word.text;
    if (text === '-delete') return no('find -delete deletes every file it matches');
    if (/^-f(print0?|printf|ls)$/.test(text)) return no(`find ${text} writes a file`);
    if (text === '-exec' || text === '-execdir' || text === '-ok' || text === '-okdir') {
      const inner: ShellWord[] = [];
      let j = i + 1;
      while (j < args.length && args[j]!.text !== ';' && args[j]!.text !== '+') {
        const w = args[j]!;
        inner.push(w.text.includes('{}') ? { text: w.text, kind: placeholder, quoted: false } : w);
        j += 1;
      }
      if (j >= args.length) return no(`find ${text} without its closing ; or +`);
      const verdict = check.nested(inner, false);
      if (!verdict.ok) return no(`find ${text} runs ${inner.map((w) => w.text).join(' ') || 'nothing'}: ${verdict.reason}`);
      i = j;
      continue;
    }
  }
  return OK;
};
