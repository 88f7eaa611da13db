// The one loopback HTTP server of wire-level tests (provider stand-ins in defer, compactor and
// discovery are routes on it): binds 127.0.0.1 on a free port, records every
// request (method, path, headers, parsed JSON body) and answers with a handler. Never listens beyond
// loopback; `close()` ends open connections so a test run never hangs on it.
import type { ServerResponse } from 'node:http';

/** One request the server received. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** The path (with query). */
  path: string;
  /** Lower-cased request headers. */
  headers: Record<string, string | string[] | undefined>;
  /** The JSON body (or the raw text when it is not JSON). */
  body: any;
}

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** Handles one request; `index` counts requests to the handler's path from 0. */
export type LoopbackHandler = (request: RecordedRequest, response: ServerResponse, index: number) => void | Promise<void>;

/** Starts a loopback server that routes `POST <path>` to `handler` and answers 404 otherwise. */
export declare function startLoopbackServer(routes: Record<string, LoopbackHandler>): Promise<LoopbackServer>;
/** Writes Server-Sent Events (`event:` + `data:` lines) and ends the response. */
export declare function writeSse(
  res: ServerResponse,
  events: ReadonlyArray<{ event?: string; data: unknown }>,
  done?: boolean,
): void;
/** Writes a JSON response. */
export declare function writeJson(res: ServerResponse, status: number, body: unknown): void;
