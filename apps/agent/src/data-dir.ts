import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { ArgumentError } from './errors.js';

/**
 * A short, stable id of a workspace: its folder name (readable in a listing) plus 12 hex digits
 * of the SHA-256 of its real path (two folders with one name never share a data dir).
 */
export function workspaceId(workspace: string): string {
  let real: string;
  try {
    real = realpathSync(workspace);
  } catch {
    real = resolve(workspace);
  }
  const name =
    basename(real)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root';
  return `${name}-${createHash('sha256').update(real).digest('hex').slice(0, 12)}`;
}

/**
 * The default data dir of a workspace, OUTSIDE it, so that no command of the model can replace or
 * read the host's state: `$XDG_STATE_HOME/aibuddy/<workspace id>`, falling back to
 * `~/.local/state/aibuddy/<workspace id>` (the XDG default).
 */
export function defaultDataDir(workspace: string, env: Record<string, string | undefined> = process.env): string {
  const state = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(state, 'aibuddy', workspaceId(workspace));
}

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Resolves the data dir of a run: the explicit `--data-dir`, else the default outside the
 * workspace. An explicit one inside the workspace is refused (exit 2): the node sandbox has no way
 * to hide a folder from commands yet, and a command could then swap it for a link or read it.
 */
export function resolveDataDir(
  explicit: string | undefined,
  workspace: string,
  env: Record<string, string | undefined> = process.env,
): string {
  if (explicit === undefined) return defaultDataDir(workspace, env);
  const dataDir = resolve(explicit);
  if (isInside(real(workspace), real(dataDir)) || isInside(resolve(workspace), dataDir)) {
    throw new ArgumentError(
      `--data-dir ${explicit} is inside the workspace ${workspace}, where the model's commands could read or replace the host's state. ` +
        `Pass a folder outside the workspace, or leave --data-dir out (default: ${defaultDataDir(workspace, env)}).`,
    );
  }
  return dataDir;
}
