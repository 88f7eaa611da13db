import { describe, expect, it } from 'vitest';
import { namespaceToolName } from './tool-names.js';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('namespaceToolName', () => {
  it('joins server and tool with "__" when the result is valid', () => {
    expect(namespaceToolName('github', 'create_issue')).toBe('github__create_issue');
  });

  it('sanitizes and adds a stable hash suffix when characters had to change', () => {
    const name = namespaceToolName('my.server', 'get/thing');
    expect(name).toMatch(/^my_server__get_thing_[0-9a-f]{8}$/);
    expect(namespaceToolName('my.server', 'get/thing')).toBe(name);
    // Two originals that sanitize alike stay distinct.
    expect(namespaceToolName('my.server', 'get.thing')).not.toBe(name);
  });

  it('cuts long names to 64 characters, keeping them unique and valid', () => {
    const long = 'a'.repeat(80);
    const one = namespaceToolName('server', `${long}_one`);
    const two = namespaceToolName('server', `${long}_two`);
    expect(one).toHaveLength(64);
    expect(one).toMatch(VALID);
    expect(one).not.toBe(two);
  });
});
