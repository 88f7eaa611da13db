import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * A short, stable id of a workspace: its folder name (readable in a listing) plus 12 hex digits
 * of the SHA-256 of its real path (two folders with one name never share a data dir).
 */
export function workspaceId(workspace: string): string {
  const path = real(workspace);
  const name =
    basename(path)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root';
  return `${name}-${createHash('sha256').update(path).digest('hex').slice(0, 12)}`;
}

/**
 * The default data dir of a workspace, OUTSIDE it, so that no command of the model can replace or
 * read the stored results and tasks: `$XDG_STATE_HOME/aibuddy/<workspace id>`, falling back to
 * `~/.local/state/aibuddy/<workspace id>` (the XDG default).
 */
export function defaultDataDir(workspace: string, env: Record<string, string | undefined> = process.env): string {
  const state = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(state, 'aibuddy', workspaceId(workspace));
}

/**
 * Whether a data dir lies inside the workspace, by path or through links: there the model's
 * commands could read or replace the stored state, so a host refuses it (or hides it).
 */
export function isDataDirInWorkspace(dataDir: string, workspace: string): boolean {
  return isInside(real(workspace), real(dataDir)) || isInside(resolve(workspace), resolve(dataDir));
}

/**
 * The data dir inside the workspace as a workspace-relative path (`/`-separated), for the
 * protected paths of the file and shell tools; `undefined` when it lies outside.
 */
export function dataDirInWorkspace(dataDir: string, workspace: string): string | undefined {
  const rel = relative(resolve(workspace), resolve(dataDir));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : undefined;
}
