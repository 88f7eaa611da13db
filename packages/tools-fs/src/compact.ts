import type { CompactDecision, CompactHookArgs } from '@aibuddy/registry';

const RECOVERY: Record<string, string> = {
  read_file: 'call read_file with offset=<first omitted line> to see them again',
  grep: 'run grep again with a narrower pattern, path or glob',
  glob: 'run glob again with a narrower pattern or path',
  ls: 'list a subfolder, or use glob',
};

/**
 * The filesystem group's compaction policy: structured trimming, never a summary. File text and
 * listings are exact data a model must not get paraphrased; keeping the head and tail lines and
 * saying which lines were dropped (and how to get them back) loses nothing that cannot be re-read.
 * Write and edit results are small and kept.
 */
export function compactFilesystemResult(args: CompactHookArgs): CompactDecision {
  if (args.tokens <= args.targetTokens) return { strategy: 'keep' };
  if (args.toolName === 'write_file') return { strategy: 'keep' };
  // About four characters per token; the note itself needs a little room.
  const budget = Math.max(400, args.targetTokens * 4 - 300);
  const lines = args.modelText.split('\n');
  const headBudget = Math.floor(budget * 0.7);
  let headChars = 0;
  let head = 0;
  while (head < lines.length && headChars + lines[head]!.length + 1 <= headBudget) headChars += lines[head++]!.length + 1;
  let tailChars = 0;
  let tail = 0;
  while (tail < lines.length - head && tailChars + lines[lines.length - 1 - tail]!.length + 1 <= budget - headChars) {
    tailChars += lines[lines.length - 1 - tail]!.length + 1;
    tail += 1;
  }
  const omitted = lines.length - head - tail;
  if (omitted <= 0) return { strategy: 'keep' };
  const firstOmitted = lines[head]!;
  const numbered = /^\s*(\d+)\t/.exec(firstOmitted);
  const recovery = RECOVERY[args.toolName] ?? `call ${args.toolName} again to see them`;
  const where = numbered && args.toolName !== 'grep' ? ` (file lines from ${numbered[1]} on)` : '';
  const note = `[compacted: ${omitted} lines of this ${args.toolName} result omitted here${where}; ${recovery.replace('<first omitted line>', numbered?.[1] ?? '<line>')}.]`;
  return {
    strategy: 'trim',
    modelOutput: [...lines.slice(0, head), note, ...lines.slice(lines.length - tail)].join('\n'),
  };
}
