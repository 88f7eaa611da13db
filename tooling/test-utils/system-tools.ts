// Tests that need a system tool (bubblewrap, ripgrep) run for real where it is installed. Where it
// is missing they skip with the reason on a developer machine, and fail in CI (CI=true), where the
// tool is installed on purpose (see .ci/run) and a silent skip would hide a broken gate.
import { spawnSync } from 'node:child_process';

/** What a test needs to know about a system tool. */
export interface SystemTool {
  /** The tool runs here. */
  available: boolean;
  /** Pass to `describe.skipIf` / `it.skipIf`: true only when missing outside CI. */
  skip: boolean;
  /** Why the tests are skipped (printed once), or `undefined`. */
  reason: string | undefined;
}

const cache = new Map<string, SystemTool>();

/**
 * Looks for `bwrap`, `rg` or `strace` on PATH (by running `<name> --version`). Throws in CI when it is
 * missing; elsewhere returns `skip: true` and warns with the reason.
 */
export function systemTool(name: 'bwrap' | 'rg' | 'strace'): SystemTool {
  const known = cache.get(name);
  if (known) return known;
  const available = spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0;
  const pkg = name === 'bwrap' ? 'bubblewrap' : name === 'rg' ? 'ripgrep' : 'strace';
  let result: SystemTool = { available, skip: false, reason: undefined };
  if (!available) {
    const reason = `${name} is not installed (apt-get install ${pkg}); the tests that need it are skipped`;
    if (process.env.CI)
      throw new Error(`${name} is required in CI: ${reason.replace('; the tests that need it are skipped', '')}.`);
    console.warn(`skipped: ${reason}`);
    result = { available, skip: true, reason };
  }
  cache.set(name, result);
  return result;
}
