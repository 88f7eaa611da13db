import { describe, expect, it } from 'vitest';
import { assertConsistent } from './assert-consistent.js';
import { resolveToolSet } from './resolve-tool-set.js';
import { unconfiguredConfig } from './unconfigured-config.js';

describe('unconfiguredConfig', () => {
  it('yields no tools and reports the group as excluded with the reason', async () => {
    const skills = unconfiguredConfig('skills', ['view_skill'], 'no skills folder given (pass --skills DIR)');
    const set = await resolveToolSet({ configs: [skills] });
    expect(set.tools).toEqual([]);
    expect(set.excluded).toEqual([
      { key: 'skills', reason: expect.stringContaining('no skills folder given (pass --skills DIR)') },
    ]);
  });

  it('still names its key and tools, so a consistency check sees the whole group', () => {
    const skills = unconfiguredConfig('skills', ['view_skill'], 'not configured');
    expect(() =>
      assertConsistent({
        configs: [skills],
        metas: { skills: { key: 'skills', toolNames: ['view_skill'] } } as never,
        nameMap: { view_skill: 'skills' },
      }),
    ).not.toThrow();
    expect(skills).toMatchObject({ key: 'skills', toolNames: ['view_skill'] });
  });
});
