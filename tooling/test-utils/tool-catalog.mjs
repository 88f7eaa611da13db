// The one generator of real-shaped tool catalogues (verb × noun, a few typed fields, plain-English
// descriptions), deterministic, for benchmarks (bench/scale's fixture MCP servers) and tests
// (defer's catalogue). Plain JavaScript so `node bench/...` runs it on Node 20 without a build;
// types in tool-catalog.d.mts.
const VERBS = [
  'create',
  'list',
  'get',
  'update',
  'delete',
  'search',
  'archive',
  'export',
  'import',
  'sync',
  'assign',
  'close',
  'reopen',
  'publish',
  'approve',
  'schedule',
];
const NOUNS = [
  'invoice',
  'customer',
  'ticket',
  'deployment',
  'dashboard',
  'contact',
  'order',
  'shipment',
  'campaign',
  'report',
  'webhook',
  'calendar_event',
  'repository',
  'payment',
  'subscription',
  'alert',
  'document',
  'user',
  'team',
  'project',
];
const FIELDS = [
  ['id', 'string', 'The identifier of the {noun}.'],
  ['title', 'string', 'A short title for the {noun}.'],
  ['status', 'string', 'Filter or set the status, for example open or closed.'],
  ['limit', 'integer', 'How many {noun}s to return at most.'],
  ['owner_email', 'string', 'Email address of the person who owns the {noun}.'],
  ['tags', 'array', 'Labels to attach to the {noun}.'],
  ['since', 'string', 'Only {noun}s changed after this ISO date.'],
];

/**
 * The k-th tool of a service: name, description and input schema. Nouns cycle after verbs, unless
 * `options.noun` fixes one noun for the service (then the name repeats with a `_vN` suffix).
 */
export function fixtureTool(service, k, options = {}) {
  const verb = VERBS[k % VERBS.length];
  const noun = options.noun ?? NOUNS[Math.floor(k / VERBS.length) % NOUNS.length];
  const round = Math.floor(k / (VERBS.length * (options.noun === undefined ? NOUNS.length : 1)));
  const name = `${verb}_${noun}${round > 0 ? `_v${round}` : ''}`;
  const readable = noun.replace(/_/g, ' ');
  const properties = {};
  const n = 3 + (k % 3);
  for (let i = 0; i < n; i++) {
    const [field, type, text] = FIELDS[(k + i) % FIELDS.length];
    properties[field] = {
      type,
      description: text.replaceAll('{noun}', readable),
      ...(type === 'array' ? { items: { type: 'string' } } : {}),
    };
  }
  return {
    name,
    description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${readable} in ${service}${round > 0 ? ` (API version ${round + 1})` : ''}. Use it to ${verb} ${readable}s of the ${service} account.`,
    inputSchema: { type: 'object', properties, required: [Object.keys(properties)[0]] },
  };
}

/** The first `count` tools of a service. */
export function fixtureTools(service, count, options = {}) {
  return Array.from({ length: count }, (_, k) => fixtureTool(service, k, options));
}
