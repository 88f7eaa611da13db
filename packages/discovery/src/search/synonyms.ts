import { stem } from './text.js';

// Generic API vocabulary only: the verbs tool names and descriptions use for the same action, and a few
// nouns that are interchangeable in tool metadata. No domain lists (that would be fitting to a catalog).
const GROUPS: readonly string[] = [
  'get fetch retrieve obtain return read show view display lookup',
  'search find query lookup look seek',
  'list enumerate browse',
  'create add make new insert register generate',
  'delete remove erase destroy drop',
  'update edit modify change patch set',
  'send post publish submit',
  'calculate compute estimate',
  'check verify validate test',
  'convert transform translate',
  'info information detail details data',
  'image picture photo pic',
  'start begin launch run execute',
  'stop end halt terminate cancel kill',
];

const BY_STEM = new Map<string, string[]>();
for (const group of GROUPS) {
  const stems = [...new Set(group.split(' ').map(stem))];
  for (const s of stems) {
    const others = stems.filter((o) => o !== s);
    BY_STEM.set(s, [...new Set([...(BY_STEM.get(s) ?? []), ...others])]);
  }
}

/** Stems used interchangeably with `stemmed` in tool metadata (not including itself). */
export function synonymsOf(stemmed: string): readonly string[] {
  return BY_STEM.get(stemmed) ?? [];
}
