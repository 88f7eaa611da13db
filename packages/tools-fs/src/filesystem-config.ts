import type { ResultHookArgs, ServerToolConfig } from '@aibuddy/registry';
import { compactFilesystemResult } from './compact.js';
import type { FsRunContext } from './fs-context.js';
import { DEFAULT_FILESYSTEM_LIMITS } from './limits.js';
import type { FilesystemLimits } from './limits.js';
import { createPathLock } from './path-lock.js';
import { createReadTracker } from './read-tracker.js';
import './sandbox-service.js';
import { createEditFileTool, editFileView } from './tools/edit-file.js';
import type { EditFileOutput } from './tools/edit-file.js';
import { createGlobTool, globView } from './tools/glob.js';
import type { GlobOutput } from './tools/glob.js';
import { createGrepTool, grepView } from './tools/grep.js';
import type { GrepOutput } from './tools/grep.js';
import { createLsTool, lsView } from './tools/ls.js';
import type { LsOutput } from './tools/ls.js';
import { createReadFileTool, readFileView } from './tools/read-file.js';
import type { ReadFileOutput } from './tools/read-file.js';
import { createWriteFileTool, writeFileView } from './tools/write-file.js';
import type { WriteFileOutput } from './tools/write-file.js';

/** Options of {@link createFilesystemToolConfig}. */
export interface FilesystemToolConfigOptions {
  /** Limits to override (the rest keep their defaults, see `DEFAULT_FILESYSTEM_LIMITS`). */
  limits?: Partial<FilesystemLimits>;
  /**
   * Whether `write_file` refuses to overwrite an existing file the agent has not read in this run
   * (or that changed since). Default true: a blind overwrite is how agents lose people's work.
   */
  overwriteRequiresRead?: boolean;
  /**
   * Workspace-relative paths whose writes and edits need a person's confirmation, besides every
   * `.git` folder (always protected), for example the host's data folder when it is inside the workspace.
   */
  protectedPaths?: readonly string[];
}

/** The tool names of the filesystem group, in the order they are created. */
export const FILESYSTEM_TOOL_NAMES = ['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep'] as const;

/** What the client is sent for a filesystem result: a one-line summary plus the raw result. */
export interface FilesystemClientView {
  /** The tool. */
  tool: string;
  /** The first line of the model view (for example "Edited src/a.ts: 1 replacement at line 12."). */
  summary: string;
  /** The raw result. */
  output: unknown;
}

/**
 * The `filesystem` group: `ls`, `read_file`, `write_file`, `edit_file`, `glob`, `grep`, bound to the
 * run's sandbox (`services.sandbox`). Without a sandbox it yields nothing ("no sandbox in this host").
 * The tools of one run share a read tracker (the stale-read guard), one client projection and
 * one compaction policy.
 */
export function createFilesystemToolConfig(options: FilesystemToolConfigOptions = {}): ServerToolConfig {
  const limits: FilesystemLimits = { ...DEFAULT_FILESYSTEM_LIMITS, ...options.limits };
  const views: Record<string, (output: never) => string> = {
    ls: (o: LsOutput) => lsView(o),
    read_file: (o: ReadFileOutput) => readFileView(o),
    write_file: (o: WriteFileOutput) => writeFileView(o),
    edit_file: (o: EditFileOutput) => editFileView(o),
    glob: (o: GlobOutput) => globView(o),
    grep: (o: GrepOutput) => grepView(o, limits.grepChars, limits.grepLineChars),
  };
  const toClient = ({ toolName, output }: ResultHookArgs): FilesystemClientView => {
    const view = views[toolName];
    let summary = toolName;
    try {
      summary = view ? (view(output as never).split('\n')[0] ?? toolName) : toolName;
    } catch {
      // A summary is a convenience; the raw output is what matters.
    }
    return { tool: toolName, summary, output };
  };
  return {
    key: 'filesystem',
    toolNames: FILESYSTEM_TOOL_NAMES,
    requires: { services: ['sandbox'] },
    create: ({ services }) => {
      const sandbox = services.sandbox;
      if (!sandbox) return [];
      // One tracker per run: create() is called once per run, so state never leaks across runs.
      const run: FsRunContext = {
        sandbox,
        tracker: createReadTracker(),
        limits,
        overwriteRequiresRead: options.overwriteRequiresRead ?? true,
        lock: createPathLock(sandbox.root),
        ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
      };
      return [
        createLsTool(run),
        createReadFileTool(run),
        createWriteFileTool(run),
        createEditFileTool(run),
        createGlobTool(run),
        createGrepTool(run),
      ];
    },
    instructions: () =>
      [
        'File tools work on paths relative to the workspace root; nothing outside it can be read or written.',
        `read_file returns numbered lines, at most ${limits.readLines} lines / ${limits.readChars} characters per call; when a result says it was cut, continue with the offset it gives. grep shows at most ${limits.grepResults} results and glob ${limits.globFiles} files per call: narrow the search rather than paging through noise.`,
        'Read a file before changing it. edit_file needs old_text copied exactly from the file (without the line-number prefix) and unique, or replace_all; it refuses if the file changed since you read it — read it again then.',
        'write_file overwrites whole files and refuses to overwrite a file you have not read in this run; prefer edit_file for changes.',
        'After writing or editing, check the reported region, size and line count, and verify behaviour (run the tests or the build) before saying the change is done.',
      ].join('\n'),
    hooks: { toClient, compact: compactFilesystemResult },
  };
}

/** The `filesystem` group with default limits. */
export const filesystemToolConfig: ServerToolConfig = createFilesystemToolConfig();
