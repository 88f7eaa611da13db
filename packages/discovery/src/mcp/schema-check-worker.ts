import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { OutputUnit, SchemaDraft } from '@cfworker/json-schema';

// A server writes both a tool's output schema and the results checked against it, so a hostile one
// can make the check take exponential time (two `anyOf` branches that descend the same subtree:
// 2^depth evaluations, 2.3 s at depth 18) or memory. A JavaScript function cannot be interrupted,
// so the check runs on a worker thread, which can be: one check at a time, each with a deadline,
// and a check past it ends the worker (a new one starts for the next check). The worker is unref'd:
// it never keeps the host's process alive.

/** The verdict of one check. */
export type SchemaCheckVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; errors: OutputUnit[] }
  /** The value nests too deeply, or has too many problems, for the validator's stack. */
  | { kind: 'too-deep' }
  /** The validator cannot use the schema (a `$ref` to another document, two subschemas with one `$id`). */
  | { kind: 'unusable' }
  /** The check passed its deadline and was stopped. */
  | { kind: 'timeout' }
  /** The worker ended during the check (out of memory, most likely). */
  | { kind: 'crashed'; message: string }
  /** No worker can run the validator here (it failed before it was ready): check in the calling thread. */
  | { kind: 'unavailable'; message: string };

/** Whether `error` is the engine's stack overflow (a value or a list of problems too deep to walk). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** Most errors a check sends back (the caller reports at most 20; 100,000 would be cloned for nothing). */
const MAX_ERRORS_SENT = 200;
/** The worker's heap limit: a check that needs more is a hostile one. */
const WORKER_HEAP_MB = 256;
/**
 * Validators the worker keeps, least recently used dropped first: a long-lived host calls many
 * tools over many runs. A dropped one is built again from its schema, which the worker asks for.
 */
export const MAX_WORKER_VALIDATORS = 256;

// Plain JavaScript, evaluated by the worker (`eval: true`): no file to ship next to the build, and
// the validator is loaded from the path this package resolves.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Validator } = require(workerData.validatorPath);
const validators = new Map();
parentPort.postMessage({ ready: true });
parentPort.on('message', ({ id, schemaId, schema, draft, value }) => {
  let reply;
  try {
    let validator = validators.get(schemaId);
    if (validator === undefined && schema === undefined) {
      parentPort.postMessage({ id, kind: 'resend' });
      return;
    }
    if (validator === undefined) {
      validator = new Validator(schema, draft, false);
      if (validators.size >= ${MAX_WORKER_VALIDATORS}) validators.delete(validators.keys().next().value);
    } else validators.delete(schemaId);
    validators.set(schemaId, validator);
    const result = validator.validate(value);
    reply = result.valid ? { id, kind: 'valid' } : { id, kind: 'invalid', errors: result.errors.slice(0, ${MAX_ERRORS_SENT}) };
  } catch (error) {
    const deep = error instanceof RangeError && /call stack/i.test(error.message);
    reply = { id, kind: deep ? 'too-deep' : 'unusable' };
  }
  parentPort.postMessage(reply);
});
`;

/** One check waiting for, or holding, the worker. */
interface Job {
  id: number;
  schemaId: number;
  schema: unknown;
  draft: SchemaDraft;
  value: unknown;
  timeoutMs: number;
  /** Whose check this is (an MCP server): lanes take turns for the worker. */
  lane: string;
  settle: (verdict: SchemaCheckVerdict | { kind: 'aborted'; reason: unknown }) => void;
}

/**
 * Runs schema checks on one worker thread, one at a time, each with a deadline. Waiting checks queue
 * by lane (the server whose schema it is), and the worker goes to the lane it served least recently:
 * a server whose checks all run into their deadline delays another server's check by the one that
 * is running, not by its whole queue.
 */
export class SchemaCheckWorker {
  /** Set when a worker failed before it was ready: none can run here, every check answers `unavailable`. */
  unavailable: string | undefined;
  /** Checks handed to a worker so far (diagnostics and tests). */
  handedOver = 0;
  private worker: Worker | undefined;
  /** Schema ids the current worker has a validator for (a new worker starts with none). */
  private known = new Set<number>();
  /** Waiting checks per lane, in arrival order (lanes with none are removed). */
  private readonly lanes = new Map<string, Job[]>();
  /** When each lane was last served (a count of checks started); never served: absent. */
  private readonly lastServed = new Map<string, number>();
  private started = 0;
  /** A check to run again before any other (the worker dropped its validator mid-check). */
  private retry: Job | undefined;
  private running: { job: Job; timer: NodeJS.Timeout } | undefined;
  private nextJobId = 1;

  /** `validatorPath`: the file of `@cfworker/json-schema` the worker requires. */
  constructor(private readonly validatorPath: string) {}

  check(
    schemaId: number,
    schema: unknown,
    draft: SchemaDraft,
    value: unknown,
    options: { timeoutMs: number; signal?: AbortSignal; lane?: string },
  ): Promise<SchemaCheckVerdict> {
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        if (!this.dequeue(job) && this.running?.job === job) this.stopRunning();
        job.settle({ kind: 'aborted', reason: signal?.reason });
      };
      const job: Job = {
        id: this.nextJobId++,
        schemaId,
        schema,
        draft,
        value,
        timeoutMs: options.timeoutMs,
        lane: options.lane ?? '',
        settle: (verdict) => {
          signal?.removeEventListener('abort', onAbort);
          if (verdict.kind === 'aborted') reject(verdict.reason);
          else resolve(verdict);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.handedOver++;
      const waiting = this.lanes.get(job.lane);
      if (waiting) waiting.push(job);
      else this.lanes.set(job.lane, [job]);
      this.pump();
    });
  }

  /** The next check to run: a retry first, else the first check of the lane whose turn it is. */
  private next(): Job | undefined {
    if (this.retry) {
      const job = this.retry;
      this.retry = undefined;
      return job;
    }
    // The lane served least recently; among lanes never served, the one that has waited longest.
    let pick: string | undefined;
    let oldest = Number.POSITIVE_INFINITY;
    for (const lane of this.lanes.keys()) {
      const served = this.lastServed.get(lane) ?? -1;
      if (served < oldest) {
        oldest = served;
        pick = lane;
      }
    }
    if (pick === undefined) return undefined;
    const waiting = this.lanes.get(pick) as Job[];
    const job = waiting.shift() as Job;
    if (waiting.length === 0) this.lanes.delete(pick);
    this.lastServed.set(pick, this.started++);
    return job;
  }

  /** Takes a waiting check out of its lane; false when it is not waiting (running, or done). */
  private dequeue(job: Job): boolean {
    if (this.retry === job) {
      this.retry = undefined;
      return true;
    }
    const waiting = this.lanes.get(job.lane);
    const at = waiting ? waiting.indexOf(job) : -1;
    if (!waiting || at < 0) return false;
    waiting.splice(at, 1);
    if (waiting.length === 0) this.lanes.delete(job.lane);
    return true;
  }

  private pump(): void {
    if (this.running) return;
    const job = this.next();
    if (!job) return;
    if (this.unavailable !== undefined) {
      job.settle({ kind: 'unavailable', message: this.unavailable });
      this.pump();
      return;
    }
    let worker: Worker;
    try {
      worker = this.ensureWorker();
    } catch (error) {
      job.settle({ kind: 'crashed', message: (error as Error).message });
      this.pump();
      return;
    }
    const first = !this.known.has(job.schemaId);
    this.known.add(job.schemaId);
    const timer = setTimeout(() => {
      this.stopRunning();
      job.settle({ kind: 'timeout' });
      this.pump();
    }, job.timeoutMs);
    this.running = { job, timer };
    try {
      worker.postMessage({
        id: job.id,
        schemaId: job.schemaId,
        schema: first ? job.schema : undefined,
        draft: job.draft,
        value: job.value,
      });
    } catch (error) {
      // Copying the value for the worker recurses: a value nested thousands of levels deep overflows
      // this thread's stack before the worker sees it.
      clearTimeout(timer);
      this.running = undefined;
      if (first) this.known.delete(job.schemaId);
      job.settle(isStackOverflow(error) ? { kind: 'too-deep' } : { kind: 'crashed', message: (error as Error).message });
      this.pump();
    }
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { validatorPath: this.validatorPath },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    let ready = false;
    worker.on('message', (reply: ({ id: number } & SchemaCheckVerdict) | { ready: true }) => {
      if ('ready' in reply) {
        ready = true;
        return;
      }
      const running = this.running;
      if (!running || running.job.id !== reply.id) return;
      if ((reply as { kind: string }).kind === 'resend') {
        // The worker dropped this validator (least recently used): the same check again, with its schema.
        this.known.delete(running.job.schemaId);
        clearTimeout(running.timer);
        this.running = undefined;
        this.retry = running.job;
        this.pump();
        return;
      }
      clearTimeout(running.timer);
      this.running = undefined;
      const { id: _, ...verdict } = reply;
      running.job.settle(verdict as SchemaCheckVerdict);
      this.pump();
    });
    const lost = (message: string) => {
      if (this.worker !== worker) return;
      this.forgetWorker();
      if (!ready) this.unavailable = message;
      const running = this.running;
      if (!running) return;
      clearTimeout(running.timer);
      this.running = undefined;
      running.job.settle(ready ? { kind: 'crashed', message } : { kind: 'unavailable', message });
      this.pump();
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`the check's worker exited with code ${code}`));
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Ends the worker when no check runs (the next check starts a new one); tests use it. */
  async stopIdle(): Promise<void> {
    if (this.running || !this.worker) return;
    await this.forgetWorker()?.terminate();
  }

  /** Ends the worker in the middle of the running check (the next check starts a new one). */
  private stopRunning(): void {
    const running = this.running;
    if (!running) return;
    clearTimeout(running.timer);
    this.running = undefined;
    void this.forgetWorker()?.terminate();
  }

  /** Drops the current worker (its validators with it) and returns it; the next check starts a new one. */
  private forgetWorker(): Worker | undefined {
    const worker = this.worker;
    this.worker = undefined;
    this.known = new Set();
    return worker;
  }
}

let shared: SchemaCheckWorker | null | undefined;

/**
 * The process's schema-check worker, or `null` where none can run (the validator's file cannot be
 * resolved, as in a bundle): the caller then checks in its own thread. Started at the first check.
 */
export function schemaCheckWorker(): SchemaCheckWorker | null {
  if (shared !== undefined) return shared;
  try {
    shared = new SchemaCheckWorker(createRequire(import.meta.url).resolve('@cfworker/json-schema'));
  } catch {
    shared = null;
  }
  return shared;
}
