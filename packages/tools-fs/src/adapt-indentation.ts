/**
 * Re-indenting an edit's new text the way the file is indented, when the old text matched only
 * with its indentation ignored (or was found right after a line's indentation). Refuses, with a
 * reason, whenever the depth of a new line cannot be known.
 */

/** The indentation (spaces and tabs) a line starts with. */
const leading = (line: string) => /^[ \t]*/.exec(line)![0];

/** The result of adapting the new text's indentation: the text to insert, or why it cannot be done. */
export type IndentAdaptation = { ok: true; text: string } | { ok: false; reason: string };

/** Indentation widths a space ↔ tab conversion may use. */
const TAB_WIDTHS = new Set([2, 3, 4, 8]);

/** The one indentation character of the leads, `''` when all are empty, `'mixed'` when both occur. */
function indentChar(leads: readonly string[]): ' ' | '\t' | '' | 'mixed' {
  let found: ' ' | '\t' | '' = '';
  for (const lead of leads) {
    for (const ch of lead) {
      if (found === '') found = ch as ' ' | '\t';
      else if (found !== ch) return 'mixed';
    }
  }
  return found;
}

/** The smallest non-zero lead length: the first indentation level, as a guess of the unit. */
function smallestLevel(leads: readonly string[]): number | undefined {
  const sizes = leads.map((l) => l.length).filter((n) => n > 0);
  return sizes.length === 0 ? undefined : Math.min(...sizes);
}

/**
 * Re-indents the new text the way the file is indented, when the old text matched the file only
 * with its indentation ignored. Indentation is mapped by one rule for the whole block,
 * `file depth = a × old depth + b`, fitted on the matched lines: `a` is 1 with the same character,
 * or the tab width (2, 3, 4 or 8) between spaces and tabs; `b` is the block's base depth in the
 * file. The new text's lines (whose indentation is read like the old text's) are mapped by the
 * same rule. A flush-left old text, whose indentation says nothing, takes its character from the
 * new text or else the file.
 *
 * When no such rule fits, or a new line would land left of the block's base (a silent de-indent),
 * it says why instead (`ok: false`): the caller refuses the edit. One exception: an old text written
 * entirely flush-left against lines of different depths, with a new text that is flush-left too and
 * has as many lines, takes the file's indentation line by line.
 *
 * Compare Aider's "flexible search and replace" (relative indentation) and opencode's
 * indentation-flexible replacer; this is a different, deterministic rule.
 */
export function adaptIndentation(oldLines: string[], fileLines: string[], newText: string, fileUnit?: number): IndentAdaptation {
  const pairs: Array<{ old: string; file: string; line: number }> = [];
  for (let i = 0; i < oldLines.length; i++) {
    const o = oldLines[i]!;
    const f = fileLines[i] ?? '';
    if (o.trim() === '' || f.trim() === '') continue;
    pairs.push({ old: leading(o), file: leading(f), line: i + 1 });
  }
  if (pairs.every((p) => p.old === p.file)) return { ok: true, text: newText };
  const newLines = newText.split('\n');
  const newLeads = newLines.filter((l) => l.trim() !== '').map(leading);
  const oldLeads = pairs.map((p) => p.old);
  const fileLeads = pairs.map((p) => p.file);

  const fileChar = indentChar(fileLeads);
  const oldOwn = indentChar(oldLeads);
  const newOwn = indentChar(newLeads);
  if (fileChar === 'mixed')
    return { ok: false, reason: 'the matched lines of the file mix tabs and spaces in their indentation' };
  if (oldOwn === 'mixed' || newOwn === 'mixed') {
    return { ok: false, reason: `${oldOwn === 'mixed' ? 'old_text' : 'new_text'} mixes tabs and spaces in its indentation` };
  }
  if (oldOwn !== '' && newOwn !== '' && oldOwn !== newOwn) {
    return { ok: false, reason: 'old_text and new_text indent with different characters (one with tabs, the other with spaces)' };
  }
  const oldChar = oldOwn || newOwn || fileChar;
  const target = fileChar || oldChar;

  // Flush-left old text against lines of different depths: only a same-shape flush-left new text can be placed.
  const oldDepths = new Set(pairs.map((p) => p.old.length));
  const fileDepths = new Set(pairs.map((p) => p.file.length));
  if (oldDepths.size === 1 && oldDepths.has(0) && fileDepths.size > 1) {
    if (newOwn === '' && newLines.length === oldLines.length) {
      return {
        ok: true,
        text: newLines.map((line, i) => (line.trim() === '' ? line : `${leading(fileLines[i] ?? '')}${line}`)).join('\n'),
      };
    }
    return {
      ok: false,
      reason:
        'old_text is written flush-left, but the lines it matched are indented to different depths, so the depth of each new line cannot be known',
    };
  }

  // a: file columns per old column.
  let a: number;
  if (oldChar === target) a = 1;
  else {
    const distinct = pairs.find((p) => p.old.length !== pairs[0]!.old.length);
    let width: number;
    if (distinct) {
      const p0 = pairs[0]!;
      const slope = (distinct.file.length - p0.file.length) / (distinct.old.length - p0.old.length);
      width = oldChar === ' ' ? 1 / slope : slope;
    } else if (pairs[0]!.old.length > 0 && pairs[0]!.file.length > 0) {
      // One depth only: it maps onto the file's depth as a whole (4 spaces ↔ 1 tab is width 4).
      const p0 = pairs[0]!;
      width = oldChar === ' ' ? p0.old.length / p0.file.length : p0.file.length / p0.old.length;
    } else {
      // A flush-left old text says nothing about width: take the first level of the spaces side.
      width = (oldChar === ' ' ? smallestLevel([...oldLeads, ...newLeads]) : (fileUnit ?? smallestLevel(fileLeads))) ?? 4;
    }
    if (!TAB_WIDTHS.has(width)) {
      return { ok: false, reason: 'no single tab width converts the indentation of old_text into the indentation the file has' };
    }
    a = oldChar === ' ' ? 1 / width : width;
  }
  const b = pairs[0]!.file.length - a * pairs[0]!.old.length;
  for (const p of pairs) {
    if (Math.abs(p.file.length - (a * p.old.length + b)) > 1e-9) {
      return {
        ok: false,
        reason: `the indentation of old_text does not map onto the file's by one consistent rule (line ${p.line} of old_text has ${JSON.stringify(p.old)}, the file has ${JSON.stringify(p.file)})`,
      };
    }
  }
  const out: string[] = [];
  for (const [i, line] of newLines.entries()) {
    if (line.trim() === '') {
      out.push(line);
      continue;
    }
    const lead = leading(line);
    const depth = a * lead.length + b;
    if (!Number.isInteger(depth) || depth < 0) {
      return {
        ok: false,
        reason: `line ${i + 1} of new_text (indented ${JSON.stringify(lead)}) does not convert to a whole indentation in the file`,
      };
    }
    out.push(`${target.repeat(depth)}${line.slice(lead.length)}`);
  }
  return { ok: true, text: out.join('\n') };
}

/** The file's first indentation level in spaces (smallest non-zero space-only lead), for tab-width guesses. */
export function spaceUnit(lines: readonly string[]): number | undefined {
  let unit: number | undefined;
  for (const line of lines) {
    const lead = leading(line);
    if (lead === '' || lead.includes('\t') || line.trim() === '') continue;
    if (unit === undefined || lead.length < unit) unit = lead.length;
  }
  return unit;
}

/**
 * A one-line old text found exactly right after a line's indentation (`return 1` inside
 * `        return 1`), replaced by several lines whose later lines are not indented like that line:
 * the model wrote the block flush-left, so its later lines would land flush-left too (a Python
 * method that no longer parses). They are re-indented relative to the line instead. `undefined`
 * when this does not apply (the new text is then used as written).
 */
export function indentAfterLead(text: string, start: number, oldText: string, newText: string): IndentAdaptation | undefined {
  if (oldText.includes('\n') || !newText.includes('\n') || /^[ \t]/.test(oldText)) return undefined;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lead = text.slice(lineStart, start);
  if (lead === '' || !/^[ \t]+$/.test(lead)) return undefined;
  const later = newText
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '');
  if (later.every((l) => l.startsWith(lead))) return undefined; // already written with the file's indentation
  const adapted = adaptIndentation([oldText], [lead + oldText], newText);
  if (!adapted.ok) return adapted;
  const first = adapted.text.split('\n', 1)[0]!;
  // The range starts after the lead, so the first line goes in without it.
  return { ok: true, text: first.startsWith(lead) ? adapted.text.slice(lead.length) : adapted.text };
}
