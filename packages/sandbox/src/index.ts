export type {
  DirEntry,
  EditFileOptions,
  EditFileResult,
  EditSpec,
  EntryType,
  ExecOptions,
  ExecResult,
  GlobOptions,
  GlobResult,
  GrepMatch,
  GrepOptions,
  GrepResult,
  ISandbox,
  LsOptions,
  LsResult,
  NodeSandboxBaseConfig,
  OperationOptions,
  ReadFileOptions,
  ReadFileResult,
  RemoteSandboxConfig,
  SandboxConfig,
  SandboxConfigMap,
  SandboxType,
  TextEncodingGuess,
  WriteFileOptions,
  WriteFileResult,
} from './types.js';
export {
  SandboxAbortedError,
  SandboxArgumentError,
  SandboxBinaryFileError,
  SandboxEditError,
  SandboxError,
  SandboxNotAFileError,
  SandboxNotFoundError,
  SandboxPathError,
  SandboxTimeoutError,
  SandboxTooLargeError,
  SandboxUnavailableError,
} from './errors.js';
export type { SandboxErrorClass, SandboxErrorCode } from './errors.js';
export { AVAILABLE_SANDBOX_TYPES, createSandbox } from './create-sandbox.js';
export type { CreateSandboxOptions, NodeSandboxFactory, SandboxAdapters, SandboxFactory } from './create-sandbox.js';
export { isGitSegment, normalizeWorkspacePath, protectedPathMatch } from './workspace-paths.js';
export { createLinkResolver } from './link-resolver.js';
export { occurrences } from './occurrences.js';
export { findLoneSurrogate } from './lone-surrogate.js';
export type { LoneSurrogate } from './lone-surrogate.js';
export type { LinkResolution } from './link-resolver.js';
