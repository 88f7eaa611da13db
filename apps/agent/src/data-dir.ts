import { resolve } from 'node:path';
import { defaultDataDir, isDataDirInWorkspace } from '@aibuddy/compactor';
import { ArgumentError } from './errors.js';

/**
 * The data dir of a run: the explicit `--data-dir`, else the compactor's default outside the
 * workspace. An explicit one inside the workspace is refused (exit 2): the node sandbox has no way
 * to hide a folder from commands yet, and a command could then swap it for a link or read it.
 */
export function resolveDataDir(
  explicit: string | undefined,
  workspace: string,
  env: Record<string, string | undefined> = process.env,
): string {
  if (explicit === undefined) return defaultDataDir(workspace, env);
  if (isDataDirInWorkspace(explicit, workspace)) {
    throw new ArgumentError(
      `--data-dir ${explicit} is inside the workspace ${workspace}, where the model's commands could read or replace the host's state. ` +
        `Pass a folder outside the workspace, or leave --data-dir out (default: ${defaultDataDir(workspace, env)}).`,
    );
  }
  return resolve(explicit);
}
