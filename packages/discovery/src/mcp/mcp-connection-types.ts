/**
 * The public shapes around one MCP server connection: its states, the events it reports, and the
 * timing settings it runs with. Kept apart from the connection class so the manager and hosts can
 * depend on them alone.
 */
import type { ToolError } from '@aibuddy/registry';
import type { StartSlots } from './start-slots.js';

/** The state of one MCP server. */
export type McpServerStatus = 'starting' | 'ready' | 'reconnecting' | 'failed' | 'closed' | 'disabled';

/** Something that happened to an MCP server (for logs, UIs and tests). */
export type McpServerEvent =
  | { type: 'server-ready'; server: string; toolCount: number; reconnected: boolean }
  | { type: 'server-failed'; server: string; error: ToolError }
  | { type: 'server-disconnected'; server: string; reason: string; stderrTail: string }
  | { type: 'server-reconnect-scheduled'; server: string; attempt: number; delayMs: number }
  | { type: 'tools-changed'; server: string; toolCount: number }
  | { type: 'warning'; server: string; message: string };

/** Reconnection after a server dies mid-run: exponential backoff. */
export interface McpReconnectOptions {
  /** Delay before the first attempt (default 500 ms). */
  initialDelayMs?: number;
  /** Upper bound of the delay (default 30 s). */
  maxDelayMs?: number;
  /** Attempts before the server is given up as failed (default 8). */
  maxAttempts?: number;
}

/** Timing and identity of a connection. Every time constant is injectable so tests stay fast. */
export interface McpConnectionSettings {
  /** Start-up timeout (handshake plus the first `tools/list`), unless the server entry sets one. */
  startupTimeoutMs: number;
  /** How long one `tools/call` may take; progress notifications reset it. */
  callTimeoutMs: number;
  /** Backoff after a crash, or `false` to never reconnect. */
  reconnect: Required<McpReconnectOptions> | false;
  /** On shutdown, how long a stdio server may take to exit after stdin closes before SIGTERM. */
  shutdownGraceMs: number;
  /** The client identity sent in `initialize`. */
  clientInfo: { name: string; version: string };
  /** Start slots shared by the stdio servers of one manager (none: every server starts at once). */
  startSlots?: StartSlots;
  /** Receives server events. */
  onEvent?: (event: McpServerEvent) => void;
  /** Receives each stderr chunk of stdio servers (they are captured for reports either way). */
  onStderr?: (server: string, chunk: string) => void;
}
