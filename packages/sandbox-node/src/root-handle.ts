import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { SandboxNotFoundError } from '@aibuddy/sandbox';
import type { Root } from './paths.js';

interface HeldState {
  fd: number | undefined;
}

// A sandbox that is dropped without close() still gives its descriptor back when collected.
const finalizer = new FinalizationRegistry<HeldState>((state) => {
  if (state.fd !== undefined) {
    try {
      closeSync(state.fd);
    } catch {
      // already closed
    }
    state.fd = undefined;
  }
});

/**
 * The workspace root held open as a directory descriptor: every file operation resolves its path
 * relative to this descriptor, so renaming or re-linking anything above or inside the root cannot
 * redirect it. Operations `acquire` the descriptor and `release` it; `close` gives it back once
 * no operation uses it (a later operation reopens it, checking it is still the same folder).
 */
export class RootHandle {
  /** `path.resolve` of the configured root. */
  readonly given: string;
  /** Real path of the root (symlinks resolved) at creation. */
  readonly real: string;
  private readonly dev: number;
  private readonly ino: number;
  private readonly state: HeldState = { fd: undefined };
  private users = 0;
  private closeRequested = false;

  constructor(given: string, real: string) {
    this.given = given;
    this.real = real;
    const fd = openSync(real, constants.O_RDONLY | constants.O_DIRECTORY);
    const st = fstatSync(fd);
    this.dev = st.dev;
    this.ino = st.ino;
    this.state.fd = fd;
    finalizer.register(this, this.state, this);
  }

  /** Takes the held descriptor for one operation; pair with `release`. */
  acquire(): Root {
    if (this.state.fd === undefined) {
      // Reopened after close(): the configured path must still be the same folder.
      const fd = openSync(this.real, constants.O_RDONLY | constants.O_DIRECTORY);
      const st = fstatSync(fd);
      if (st.dev !== this.dev || st.ino !== this.ino) {
        closeSync(fd);
        throw new SandboxNotFoundError(
          `The workspace root "${this.real}" was replaced by another folder after the sandbox was created; create a new sandbox.`,
          { path: this.real },
        );
      }
      this.state.fd = fd;
    }
    this.closeRequested = false;
    this.users++;
    return { given: this.given, real: this.real, fd: this.state.fd };
  }

  /** Gives back what `acquire` took. */
  release(): void {
    this.users--;
    if (this.closeRequested && this.users === 0) this.closeNow();
  }

  /** Closes the descriptor now, or when the last running operation releases it. */
  close(): void {
    this.closeRequested = true;
    if (this.users === 0) this.closeNow();
  }

  /** Number of operations holding the descriptor (for tests). */
  get inUse(): number {
    return this.users;
  }

  private closeNow(): void {
    const fd = this.state.fd;
    this.state.fd = undefined;
    this.closeRequested = false;
    if (fd !== undefined) closeSync(fd);
  }
}
