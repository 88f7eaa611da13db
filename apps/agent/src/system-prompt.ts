/** Builds the system prompt: who the agent is, where it works, and each present group's run notes. */
export function buildSystemPrompt(input: {
  workspace: string;
  instructions: readonly { key: string; text: string }[];
  extra?: string;
}): string {
  const parts = [
    'You are aibuddy, a careful software agent. You act only through the tools you are given.',
    `The workspace is ${input.workspace}; paths are relative to it. Verify what you change before you report it as done.`,
    'When a tool fails, read the stage in brackets ([parameters], [execution], ...) and the hint, and fix that.',
  ];
  for (const { key, text } of input.instructions) parts.push(`## ${key}\n${text}`);
  if (input.extra) parts.push(input.extra);
  return parts.join('\n\n');
}
