import { defineTool, ToolError } from '@aibuddy/registry';
import type { ToolDefinition } from '@aibuddy/registry';
import { SandboxBinaryFileError, SandboxNotFoundError } from '@aibuddy/sandbox';
import type { ReadFileResult } from '@aibuddy/sandbox';
import { z } from 'zod';
import { toFsToolError } from '../errors.js';
import { snapshotOf } from '../fs-context.js';
import type { FsRunContext } from '../fs-context.js';
import type { FilesystemLimits } from '../limits.js';
import { formatBytes, shortHash } from '../format.js';
import { staleReason } from '../read-tracker.js';
import { runPathImpact } from '../sensitive-paths.js';
import { countLines, sha256 } from '../text.js';
import { expectedReadContent, rereadWhole } from '../verify.js';

/**
 * The input schema of `write_file`, as the model sees it (its bounds come from the run's limits).
 * `WriteFileInput` is derived from it, so the schema is the one source of the input's shape.
 */
export function writeFileInputSchema(limits: FilesystemLimits) {
  const { writeChars } = limits;
  return z.object({
    path: z
      .string()
      .min(1, 'path is empty: give a file path relative to the workspace root.')
      .describe('File, relative to the workspace root.'),
    content: z
      .string()
      .max(writeChars, `content is over ${writeChars} characters; write large files in parts or generate them with execute.`)
      .describe('The complete new content of the file.'),
  });
}

/** Input of `write_file` (derived from {@link writeFileInputSchema}). */
export type WriteFileInput = z.output<ReturnType<typeof writeFileInputSchema>>;

/** Raw result of `write_file`, verified by reading the file back. */
export interface WriteFileOutput {
  /** File, workspace-relative. */
  path: string;
  /** True when the file did not exist before. */
  created: boolean;
  /** Size on disk after writing (bytes). */
  size: number;
  /** Lines on disk after writing. */
  lines: number;
  /** SHA-256 of the bytes written, hex (confirmed by re-reading). */
  sha256: string;
  /** Line ending of the file as written. */
  lineEnding: '\n' | '\r\n';
  /** Always true: a failed check is a `verification` error instead. */
  verified: true;
}

/** The model view of a `write_file` result. */
export function writeFileView(output: WriteFileOutput): string {
  return (
    `${output.created ? 'Created' : 'Overwrote'} ${output.path}: ${formatBytes(output.size)} (${output.size} bytes), ${output.lines} line${output.lines === 1 ? '' : 's'}` +
    `${output.lineEnding === '\r\n' ? ', CRLF line endings' : ''}, sha256 ${shortHash(output.sha256)}. Verified by reading it back.`
  );
}

/** Creates `write_file`. */
export function createWriteFileTool(run: FsRunContext): ToolDefinition<WriteFileInput, WriteFileOutput> {
  return defineTool({
    name: 'write_file',
    description:
      'Writes a whole file (creating parent folders), atomically, then reads it back and reports size, line count and SHA-256. ' +
      'To overwrite an existing file, read it first in this run; to change part of a file, prefer edit_file.',
    inputSchema: writeFileInputSchema(run.limits),
    impact: (input: WriteFileInput) => runPathImpact(run, input.path, 'Writing'),
    execute: (input: WriteFileInput, { signal }) =>
      run.lock.run(input.path, async () => {
        let before: ReadFileResult | undefined;
        let existed = false;
        try {
          before = await run.sandbox.readFile(input.path, { limit: 1, signal });
          existed = true;
        } catch (error) {
          existed = SandboxBinaryFileError.isInstance(error);
          if (SandboxBinaryFileError.isInstance(error) && run.overwriteRequiresRead) {
            throw new ToolError(`${input.path} exists and is a binary file; write_file will not overwrite it.`, {
              stage: 'parameters',
              toolName: 'write_file',
              hint: 'Write to a new path, or remove the file with execute first if replacing it is intended.',
            });
          }
          if (!SandboxNotFoundError.isInstance(error) && !SandboxBinaryFileError.isInstance(error))
            throw toFsToolError(error, 'write_file', input.path);
        }
        if (before && run.overwriteRequiresRead) {
          const seen = run.tracker.get(before.path);
          if (!seen) {
            throw new ToolError(
              `${before.path} already exists (${formatBytes(before.size)}) and you have not read it in this run; write_file refuses to overwrite it unseen.`,
              {
                stage: 'parameters',
                toolName: 'write_file',
                hint: 'Read it with read_file first, then write it whole; or change part of it with edit_file.',
              },
            );
          }
          const reason = staleReason({ mtimeMs: seen.mtimeMs, size: seen.size }, snapshotOf(before));
          if (reason) {
            throw new ToolError(
              `${before.path} changed on disk since you last read it (${reason}); writing now would discard that change.`,
              {
                stage: 'parameters',
                toolName: 'write_file',
                hint: 'Read it again with read_file, then write it.',
              },
            );
          }
        }
        let written;
        try {
          written = await run.sandbox.writeFile(input.path, input.content, { signal });
        } catch (error) {
          throw toFsToolError(error, 'write_file', input.path);
        }
        const reread = await rereadWhole(run.sandbox, written.path, 'write_file', signal);
        const expectedSize = Buffer.byteLength(input.content, 'utf8');
        const contentMatches = reread.longLinesCut.length > 0 || reread.content === expectedReadContent(input.content);
        if (reread.size !== expectedSize || !contentMatches) {
          throw new ToolError(
            `read-back mismatch for ${written.path}: expected ${expectedSize} bytes${contentMatches ? '' : ' and the written text'}, found ${reread.size} bytes${contentMatches ? '' : ' with different text'}.`,
            {
              stage: 'verification',
              toolName: 'write_file',
              sideEffectsPossible: true,
              details: { expectedSize, actualSize: reread.size, expectedSha256: sha256(input.content) },
              hint: 'Something else may be writing this file; read it with read_file before retrying.',
            },
          );
        }
        run.tracker.record(reread.path, snapshotOf(reread));
        return {
          path: written.path,
          created: !existed,
          size: reread.size,
          lines: reread.totalLines ?? countLines(input.content),
          sha256: sha256(input.content),
          lineEnding: reread.lineEnding,
          verified: true as const,
        };
      }),
    toModelOutput: ({ output }) => writeFileView(output),
  });
}
