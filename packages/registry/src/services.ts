/**
 * Services a host injects into a run. Packages add their own entries by declaration merging
 * (`declare module '@aibuddy/registry' { interface ToolServices { sandbox?: ISandbox } }`), so the
 * registry depends on none of them.
 */
export interface ToolServices {
  [service: string]: unknown;
}

/** A service name a config can require. */
export type ServiceName = keyof ToolServices & string;

/** The task a run works on, as far as preconditions need to know. */
export interface TaskContext {
  /** Stable id of the task (run). */
  id?: string;
  /** Capabilities granted to this task (for example "team", "knowledge"). */
  capabilities?: readonly string[];
  /** Anything else a host's preconditions read. */
  [key: string]: unknown;
}

/** A condition a task must meet for a config's tools to be offered. */
export interface TaskPrecondition {
  /** Short name, for logs. */
  name: string;
  /**
   * Returns `true` when met, or a reason (for example "team capability not available for this
   * task") when not.
   */
  check(task: TaskContext): true | string;
}
