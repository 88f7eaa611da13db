// Text the CLI prints that came from a model, a tool or a file: it must never drive the terminal.
// Escape sequences (erase line, cursor up, OSC titles...) could rewrite a confirmation prompt a
// person is answering, so every control character is shown visibly escaped instead.

// C0 controls except tab and newline, DEL, C1 controls, and the Unicode line/paragraph separators
// and bidirectional overrides that reorder what a person reads.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeOne(char: string): string {
  const code = char.codePointAt(0)!;
  if (char === '\r') return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Shows control characters visibly (`\x1b`, `\r`, `\u202e`); keeps newlines and tabs. A `\r\n`
 * line ending is a plain newline. Use on everything model- or tool-derived before it is printed.
 */
export function escapeControl(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, escapeOne);
}

/** Like {@link escapeControl}, and newlines too: for one-line fields (names, targets, previews). */
export function escapeControlLine(text: string): string {
  return escapeControl(text).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

/** `1 file`, `2 files`; `plural(1, 'entry', 'entries')`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Tidies a message assembled from several layers for one line of output: a prefix repeated by
 * nested layers (`ls: ls: …`) appears once, and a sentence that two
 * layers both ended reads `.` instead of `..` (an ellipsis `...` and paths like `../x` are kept).
 */
export function tidyMessage(message: string, prefixesShown: readonly string[] = []): string {
  let text = message;
  for (const prefix of prefixesShown) {
    // The caller already printed this prefix (for example the tool name before the message).
    while (text.startsWith(`${prefix}: `)) text = text.slice(prefix.length + 2);
  }
  // `[stage] ls: ls: x` → `[stage] ls: x`
  text = text.replace(/(^|\s|\])([\w./@-]+): (?:\2: )+/g, '$1$2: ');
  return text.replace(/(?<=[\w)\]"'`])\.\.(?=\s|$)/g, '.');
}

/** One line of the CLI's own diagnostics: `aibuddy: …`, or `aibuddy run: …` when the message names its command. */
export function cliMessage(message: string): string {
  const text = tidyMessage(escapeControl(message));
  return /^aibuddy[ :]/.test(text) ? text : `aibuddy: ${text}`;
}
