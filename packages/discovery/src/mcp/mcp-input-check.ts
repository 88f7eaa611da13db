import type { InputValidation, JsonSchema } from '@aibuddy/registry';
import { checkInThread, createBoundedSchemaCheck, verdictToValidation } from './bounded-schema-check.js';

const TOO_DEEP_INPUT = 'nests too deeply or has too many problems to check; send a smaller, flatter input';

/**
 * A validator for an MCP tool's input that follows the whole JSON Schema (`$ref`, including the
 * recursive `$ref: "#"`, `required` names with no matching property, `oneOf`, drafts 4 to 2020-12),
 * built at the tool's first call, not at start-up: a catalogue of 10,000 tools pays only for the
 * tools the model uses. `format`, `pattern`, `patternProperties` and `uniqueItems` are left to the
 * server (a backtracking regular expression or a pairwise comparison run on the model's input could
 * block the host), and so is a schema the validator cannot use (a `$ref` to another document, two
 * subschemas with one `$id`): the server checks its own input anyway.
 *
 * This one runs in the calling thread, with no deadline. MCP tool definitions use
 * {@link createMcpInputCheck}, which runs the same check where it can be stopped.
 */
export function createMcpInputValidator(schema: JsonSchema): (input: unknown) => InputValidation<unknown> {
  return (input) => verdictToValidation(checkInThread(schema, input), input, TOO_DEEP_INPUT);
}

/**
 * {@link createMcpInputValidator}'s check on the schema-check worker, with a deadline
 * (`MCP_SCHEMA_CHECK_TIMEOUT_MS`): a server's schema can make it take exponential time on a small
 * input the model was led to write (two `anyOf` branches that descend the same subtree), and a
 * running check in the calling thread cannot be stopped. Past the deadline the input is refused
 * ("could not be checked within 2 s"). `server` names whose turn the check waits for on the worker,
 * so another server's slow checks hold it up by one check at most.
 */
export function createMcpInputCheck(schema: JsonSchema, server?: string): (input: unknown) => Promise<InputValidation<unknown>> {
  const check = createBoundedSchemaCheck(schema, server);
  return async (input) => verdictToValidation(await check(input), input, TOO_DEEP_INPUT);
}
