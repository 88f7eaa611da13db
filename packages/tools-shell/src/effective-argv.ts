/**
 * Peels leading assignments and wrapper programs (`sudo`, `env`, `timeout`, …) off a command, to
 * describe to a person what really runs. Separate from the reader: it works on plain words.
 */

const WRAPPERS_WITH_OPTIONS: Record<string, { argOptions: readonly string[] }> = {
  sudo: { argOptions: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '--user', '--group'] },
  doas: { argOptions: ['-u', '-C'] },
  env: { argOptions: ['-u', '-C', '-S', '--unset', '--chdir'] },
  nice: { argOptions: ['-n', '--adjustment'] },
  ionice: { argOptions: ['-c', '-n', '-p'] },
  timeout: { argOptions: ['-s', '-k', '--signal', '--kill-after'] },
  nohup: { argOptions: [] },
  setsid: { argOptions: [] },
  time: { argOptions: ['-f', '-o'] },
  command: { argOptions: [] },
  exec: { argOptions: ['-a'] },
  builtin: { argOptions: [] },
  stdbuf: { argOptions: ['-i', '-o', '-e'] },
  chroot: { argOptions: [] },
  watch: { argOptions: ['-n', '-d'] },
  busybox: { argOptions: [] },
  flock: { argOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'] },
  xargs: {
    argOptions: ['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file'],
  },
};

/**
 * The program and its arguments as they will run, for describing a command to a person: leading
 * `VAR=value` assignments and wrappers (`sudo`, `env`, `nohup`, `time`, `nice`, `timeout`,
 * `setsid`, `xargs`, `flock`, `busybox`, `command`, `exec`, …) are peeled off. `sudo` is reported
 * through `elevated`. (Whether a command is harmless is decided by `classifyCommand`, not here.)
 */
export function effectiveArgv(words: readonly string[]): { argv: string[]; elevated: boolean } {
  let i = 0;
  let elevated = false;
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i += 1;
    const word = words[i];
    if (word === undefined) break;
    const name = basename(word);
    const wrapper = WRAPPERS_WITH_OPTIONS[name];
    if (!wrapper) break;
    if (name === 'sudo' || name === 'doas') elevated = true;
    i += 1;
    if (name === 'timeout' || name === 'chroot' || name === 'flock') {
      // timeout [options] DURATION command; flock [options] FILE command
      while (i < words.length && words[i]!.startsWith('-')) i += wrapper.argOptions.includes(words[i]!) ? 2 : 1;
      i += 1;
      continue;
    }
    while (i < words.length && words[i]!.startsWith('-') && words[i] !== '-') {
      const option = words[i]!;
      if (option === '--') {
        i += 1;
        break;
      }
      i += wrapper.argOptions.includes(option) ? 2 : 1;
    }
  }
  return { argv: words.slice(i), elevated };
}

/** The last path segment of a program name (`/usr/bin/rm` → `rm`). */
export function basename(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash === -1 ? program : program.slice(slash + 1);
}
