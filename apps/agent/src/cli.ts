#!/usr/bin/env node
// Placeholder until the host lands: prints the built-in tool groups the registry knows.
import { TOOL_CONFIG_METAS, TOOL_NAME_MAP } from '@aibuddy/registry';

for (const [key, meta] of Object.entries(TOOL_CONFIG_METAS)) {
  const tools = Object.entries(TOOL_NAME_MAP).filter(([, k]) => k === key).map(([name]) => name);
  console.log(`${key.padEnd(14)} ${meta.title.padEnd(16)} ${tools.join(', ')}`);
}
