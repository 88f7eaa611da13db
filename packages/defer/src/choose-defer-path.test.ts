import { describe, expect, it } from 'vitest';
import { anthropicModelSupportsToolSearch, chooseDeferPath, openaiModelSupportsToolSearch } from './choose-defer-path.js';

describe('chooseDeferPath', () => {
  it.each([
    // provider, modelId, baseURL, override, expected path
    ['anthropic', 'claude-sonnet-4-5', undefined, 'auto', 'anthropic-native'],
    ['anthropic', 'claude-opus-4-5-20251101', 'https://api.anthropic.com/v1', 'auto', 'anthropic-native'],
    ['anthropic.messages', 'claude-sonnet-4-6', 'https://api.anthropic.com', undefined, 'anthropic-native'],
    ['anthropic', 'claude-haiku-4-5', undefined, 'auto', 'active-tools'],
    ['anthropic', 'claude-3-5-haiku-latest', undefined, 'auto', 'active-tools'],
    ['anthropic', 'claude-sonnet-4-0', undefined, 'auto', 'active-tools'],
    ['anthropic', 'claude-3-7-sonnet-latest', undefined, 'auto', 'active-tools'],
    ['anthropic', 'claude-sonnet-4-5', 'https://llm-gateway.example.com/anthropic', 'auto', 'active-tools'],
    ['anthropic', 'claude-sonnet-4-5', 'http://127.0.0.1:4000/v1', 'native', 'anthropic-native'],
    ['anthropic', 'claude-haiku-4-5', 'http://127.0.0.1:4000/v1', 'native', 'anthropic-native'],
    ['openai', 'gpt-5.4', undefined, 'auto', 'openai-native'],
    ['openai.responses', 'gpt-5.5-mini', 'https://api.openai.com/v1', 'auto', 'openai-native'],
    ['openai', 'gpt-4o', undefined, 'auto', 'active-tools'],
    ['openai', 'gpt-5', undefined, 'auto', 'active-tools'],
    ['openai', 'gpt-5.4', 'https://gateway.ai.example.com/v1', 'auto', 'active-tools'],
    ['openai', 'gpt-5.4', 'http://127.0.0.1:4000/v1', 'native', 'openai-native'],
    ['openai.chat', 'gpt-5.4', undefined, 'auto', 'active-tools'],
    ['openai-compatible', 'llama-3.3-70b', 'https://api.together.xyz/v1', 'auto', 'active-tools'],
    ['openai-compatible', 'llama-3.3-70b', 'https://api.together.xyz/v1', 'native', 'active-tools'],
    ['google', 'gemini-2.5-pro', undefined, 'auto', 'active-tools'],
    ['anthropic', 'claude-sonnet-4-5', undefined, 'active-tools', 'active-tools'],
    ['openai', 'gpt-5.4', undefined, 'active-tools', 'active-tools'],
  ] as const)('%s %s at %s (%s) → %s', (provider, modelId, baseURL, override, expected) => {
    const choice = chooseDeferPath({ provider, modelId, baseURL, override });
    expect(choice.path).toBe(expected);
    expect(choice.reason.length).toBeGreaterThan(10);
  });

  it('says why in words a person can act on', () => {
    expect(chooseDeferPath({ provider: 'anthropic', modelId: 'claude-haiku-4-5' }).reason).toMatch(/Haiku/);
    expect(
      chooseDeferPath({ provider: 'anthropic', modelId: 'claude-sonnet-4-5', baseURL: 'https://gw.example.com' }).reason,
    ).toMatch(/gw\.example\.com.*not https:\/\/api\.anthropic\.com/);
    expect(chooseDeferPath({ provider: 'openai-compatible', modelId: 'x', override: 'native' }).reason).toMatch(
      /no native tool search/,
    );
    expect(chooseDeferPath({ provider: 'openai', modelId: 'gpt-5.4', override: 'active-tools' }).reason).toMatch(/forced/);
  });

  it('treats an unparsable base URL as third-party', () => {
    expect(chooseDeferPath({ provider: 'anthropic', modelId: 'claude-sonnet-4-5', baseURL: 'not a url' }).path).toBe(
      'active-tools',
    );
  });
});

describe('model support tables', () => {
  it('Anthropic: Opus/Sonnet 4.5 and later, never Haiku', () => {
    expect(anthropicModelSupportsToolSearch('claude-opus-4-5')).toBe(true);
    expect(anthropicModelSupportsToolSearch('claude-sonnet-5')).toBe(true);
    expect(anthropicModelSupportsToolSearch('claude-opus-4-1-20250805')).toBe(false);
    expect(anthropicModelSupportsToolSearch('claude-haiku-5')).toBe(false);
  });
  it('OpenAI: GPT-5.4 and later', () => {
    expect(openaiModelSupportsToolSearch('gpt-5.4-mini')).toBe(true);
    expect(openaiModelSupportsToolSearch('gpt-6')).toBe(true);
    expect(openaiModelSupportsToolSearch('gpt-5.1')).toBe(false);
    expect(openaiModelSupportsToolSearch('o3')).toBe(false);
  });
});
