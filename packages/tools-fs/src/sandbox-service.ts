import type { ISandbox } from '@aibuddy/sandbox';

declare module '@aibuddy/registry' {
  interface ToolServices {
    /** The workspace sandbox the shell and filesystem tools act in. */
    sandbox?: ISandbox;
  }
}
