/** Limits of the filesystem tools. All are injectable; the defaults keep each model view to a few thousand tokens. */
export interface FilesystemLimits {
  /** Entries `ls` shows. Default 500. */
  lsEntries: number;
  /** Lines `read_file` returns when no limit is given. Default 2,000. */
  readLines: number;
  /** Largest `limit` `read_file` accepts. Default 5,000. */
  maxReadLines: number;
  /** Characters of file text one `read_file` returns; the window ends at the last whole line that fits. Default 40,000. */
  readChars: number;
  /** Files `glob` shows when no limit is given. Default 500. */
  globFiles: number;
  /** Largest `limit` `glob` accepts. Default 2,000. */
  maxGlobFiles: number;
  /** Matches (content mode) or files (other modes) `grep` shows when no limit is given. Default 200. */
  grepResults: number;
  /** Largest `limit` `grep` accepts. Default 1,000. */
  maxGrepResults: number;
  /** Matches `grep` scans for the file and count modes. Default 10,000. */
  grepScan: number;
  /** Characters of `grep` output the model sees. Default 20,000. */
  grepChars: number;
  /** Characters of one matching line `grep` shows. Default 400. */
  grepLineChars: number;
  /** Context lines `grep` accepts at most. Default 10. */
  maxGrepContext: number;
  /** Characters `write_file` accepts. Default 5,000,000. */
  writeChars: number;
  /** Lines of the edited region `edit_file` shows (context included). Default 60. */
  editRegionLines: number;
  /** Lines around each edit shown as context. Default 3. */
  editContextLines: number;
  /**
   * Largest file `edit_file` edits, in bytes: checked from the file's size before it is read, so the
   * tool's memory is bounded by it. Default 16 MiB (the Node sandbox's own edit limit).
   */
  editBytes: number;
}

/** The default limits. */
export const DEFAULT_FILESYSTEM_LIMITS: Readonly<FilesystemLimits> = Object.freeze({
  lsEntries: 500,
  readLines: 2_000,
  maxReadLines: 5_000,
  readChars: 40_000,
  globFiles: 500,
  maxGlobFiles: 2_000,
  grepResults: 200,
  maxGrepResults: 1_000,
  grepScan: 10_000,
  grepChars: 20_000,
  grepLineChars: 400,
  maxGrepContext: 10,
  writeChars: 5_000_000,
  editRegionLines: 60,
  editContextLines: 3,
  editBytes: 16 * 1024 * 1024,
});
