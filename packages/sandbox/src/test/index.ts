/**
 * The shared adapter contract suite (filled in by the sandbox work). Every adapter runs it.
 * @packageDocumentation
 */
export {};
