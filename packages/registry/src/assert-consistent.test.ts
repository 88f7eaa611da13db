import { describe, expect, it } from 'vitest';
import { assertConsistent, findConsistencyProblems } from './assert-consistent.js';
import { TOOL_CONFIG_METAS, TOOL_NAME_MAP } from './built-in-metas.js';
import { RegistryConsistencyError } from './errors.js';

const meta = { title: 'T', description: 'D', category: 'workspace' } as const;
const base = {
  configs: [
    { key: 'fs', toolNames: ['ls', 'read_file'] },
    { key: 'shell', toolNames: ['execute'] },
  ],
  metas: { fs: meta, shell: meta },
  nameMap: { ls: 'fs', read_file: 'fs', execute: 'shell' },
};

function problemsOf(input: Parameters<typeof assertConsistent>[0]) {
  try {
    assertConsistent(input);
  } catch (error) {
    expect(RegistryConsistencyError.isInstance(error)).toBe(true);
    return (error as RegistryConsistencyError).problems;
  }
  return [];
}

describe('assertConsistent', () => {
  it('passes a consistent registry', () => {
    expect(() => assertConsistent(base)).not.toThrow();
  });

  it('passes the built-in metas against configs shaped from the built-in name map', () => {
    const keys = Object.keys(TOOL_CONFIG_METAS);
    const configs = keys.map((key) => ({
      key,
      toolNames: Object.entries(TOOL_NAME_MAP)
        .filter(([, k]) => k === key)
        .map(([name]) => name),
    }));
    expect(() => assertConsistent({ configs, metas: TOOL_CONFIG_METAS, nameMap: TOOL_NAME_MAP })).not.toThrow();
  });

  it('finds a config without meta', () => {
    const problems = problemsOf({ ...base, metas: { fs: meta } });
    expect(problems).toEqual([expect.objectContaining({ kind: 'config-without-meta', configKey: 'shell' })]);
  });

  it('finds an orphan meta', () => {
    const problems = problemsOf({ ...base, metas: { ...base.metas, ghost: meta } });
    expect(problems).toEqual([expect.objectContaining({ kind: 'meta-without-config', configKey: 'ghost' })]);
  });

  it('finds a tool mapped to a missing config', () => {
    const problems = problemsOf({ ...base, nameMap: { ...base.nameMap, grep: 'search' } });
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'tool-maps-to-missing-config', toolName: 'grep', configKey: 'search' }),
    ]);
  });

  it('finds a tool mapped to the wrong config', () => {
    const problems = problemsOf({ ...base, nameMap: { ...base.nameMap, execute: 'fs' } });
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'tool-maps-to-wrong-config', toolName: 'execute', configKey: 'fs' }),
    ]);
    expect(problems[0]?.message).toContain('"shell"');
  });

  it('finds a tool a config yields that the map lacks', () => {
    const problems = problemsOf({ ...base, configs: [{ key: 'fs', toolNames: ['ls', 'read_file', 'glob'] }, base.configs[1]!] });
    expect(problems).toEqual([expect.objectContaining({ kind: 'tool-missing-from-map', toolName: 'glob', configKey: 'fs' })]);
  });

  it('finds a name used by two groups', () => {
    const problems = problemsOf({ ...base, configs: [base.configs[0]!, { key: 'shell', toolNames: ['execute', 'ls'] }] });
    expect(problems.map((p) => p.kind)).toContain('tool-in-several-configs');
    expect(problems.find((p) => p.kind === 'tool-in-several-configs')?.toolName).toBe('ls');
  });

  it('finds a duplicate config key', () => {
    const problems = problemsOf({ ...base, configs: [...base.configs, { key: 'fs', toolNames: [] }] });
    expect(problems.map((p) => p.kind)).toContain('duplicate-config-key');
  });

  it('lists every problem at once, in one error message', () => {
    const input = {
      configs: [
        { key: 'fs', toolNames: ['ls', 'read_file', 'glob'] },
        { key: 'shell', toolNames: ['execute', 'ls'] },
        { key: 'nometa', toolNames: ['x'] },
      ],
      metas: { fs: meta, shell: meta, ghost: meta },
      nameMap: { ls: 'fs', read_file: 'shell', execute: 'shell', x: 'nometa', grep: 'search' },
    };
    const kinds = findConsistencyProblems(input)
      .map((p) => p.kind)
      .sort();
    expect(kinds).toEqual(
      [
        'config-without-meta',
        'meta-without-config',
        'tool-in-several-configs',
        'tool-maps-to-missing-config',
        'tool-maps-to-wrong-config',
        'tool-missing-from-map',
      ].sort(),
    );
    expect(() => assertConsistent(input)).toThrow(/\(6 problems\); refusing to start/);
  });
});

describe("assertConsistent with scope: 'given' (a host that composes some groups)", () => {
  const fsOnly = [{ key: 'filesystem', toolNames: ['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep'] }];

  it('accepts one built-in group against the full built-in tables', () => {
    expect(() =>
      assertConsistent({ configs: fsOnly, metas: TOOL_CONFIG_METAS, nameMap: TOOL_NAME_MAP, scope: 'given' }),
    ).not.toThrow();
  });

  it('still reports the orphans of the full tables without it (the host check)', () => {
    const problems = problemsOf({ configs: fsOnly, metas: TOOL_CONFIG_METAS, nameMap: TOOL_NAME_MAP });
    expect(problems.map((p) => p.kind)).toContain('meta-without-config');
    expect(problems.map((p) => p.kind)).toContain('tool-maps-to-missing-config');
  });

  it('finds a given group without meta', () => {
    const problems = problemsOf({ ...base, metas: { fs: meta, ghost: meta }, scope: 'given' });
    expect(problems).toEqual([expect.objectContaining({ kind: 'config-without-meta', configKey: 'shell' })]);
  });

  it('finds a tool of a given group missing from the map', () => {
    const problems = problemsOf({
      ...base,
      configs: [{ key: 'fs', toolNames: ['ls', 'read_file', 'glob'] }, base.configs[1]!],
      scope: 'given',
    });
    expect(problems).toEqual([expect.objectContaining({ kind: 'tool-missing-from-map', toolName: 'glob' })]);
  });

  it('finds a tool of a given group that the map sends to a group not given', () => {
    const problems = problemsOf({ ...base, nameMap: { ...base.nameMap, execute: 'elsewhere' }, scope: 'given' });
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'tool-maps-to-wrong-config', toolName: 'execute', configKey: 'elsewhere' }),
    ]);
    expect(problems[0]?.message).toContain('"shell"');
  });

  it('finds a name the map gives to a given group that does not yield it', () => {
    const problems = problemsOf({ ...base, nameMap: { ...base.nameMap, grep: 'fs' }, scope: 'given' });
    expect(problems).toEqual([expect.objectContaining({ kind: 'tool-maps-to-wrong-config', toolName: 'grep', configKey: 'fs' })]);
  });

  it('finds duplicates among the given groups', () => {
    const problems = problemsOf({ ...base, configs: [...base.configs, { key: 'x', toolNames: ['ls'] }], scope: 'given' });
    expect(problems.map((p) => p.kind)).toEqual(expect.arrayContaining(['tool-in-several-configs', 'config-without-meta']));
  });
});
