#!/usr/bin/env node
// The demo's MCP server: a small "toolbox" with 12 tools, over stdio. Twelve is more than the
// gate's per-server threshold of 10, so discovery defers these tools and the demo model has to
// find one with tool_search before it can call it. Everything is computed locally (no network).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const str = (description) => ({ type: 'string', description });
const num = (description) => ({ type: 'number', description });
const obj = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required });

// A fixed, made-up climate table so answers are deterministic.
const CLIMATE = { lisbon: 19, berlin: 11, tokyo: 16, nairobi: 21, reykjavik: 5, lima: 20 };
const temperatureOf = (city) => CLIMATE[String(city).toLowerCase()] ?? 15;

const tools = [
  {
    name: 'get_weather',
    description: 'Current weather (temperature in °C and sky) for a city.',
    inputSchema: obj({ city: str('City name, for example "Lisbon"') }),
    run: ({ city }) => `${city}: ${temperatureOf(city)} °C, clear sky`,
  },
  {
    name: 'get_forecast',
    description: 'Weather forecast for the next days for a city: daily high temperature and sky.',
    inputSchema: obj({ city: str('City name'), days: num('Number of days, 1 to 7') }, ['city']),
    run: ({ city, days = 3 }) => {
      const n = Math.max(1, Math.min(7, Math.floor(days)));
      const base = temperatureOf(city);
      const skies = ['sunny', 'partly cloudy', 'light rain', 'windy', 'clear', 'showers', 'overcast'];
      return Array.from({ length: n }, (_, i) => `day ${i + 1}: ${base + ((i * 3) % 5) - 2} °C, ${skies[i % skies.length]}`).join(
        '\n',
      );
    },
  },
  {
    name: 'convert_units',
    description: 'Converts a value between units of length, mass or temperature (km/mi, kg/lb, C/F).',
    inputSchema: obj({ value: num('The value'), from: str('Unit to convert from'), to: str('Unit to convert to') }),
    run: ({ value, from, to }) => {
      const k = `${String(from).toLowerCase()}>${String(to).toLowerCase()}`;
      const table = {
        'km>mi': (v) => v * 0.621371,
        'mi>km': (v) => v / 0.621371,
        'kg>lb': (v) => v * 2.20462,
        'lb>kg': (v) => v / 2.20462,
        'c>f': (v) => (v * 9) / 5 + 32,
        'f>c': (v) => ((v - 32) * 5) / 9,
      };
      const f = table[k];
      if (!f) throw new Error(`cannot convert ${from} to ${to}; known: km/mi, kg/lb, C/F`);
      return `${value} ${from} = ${Math.round(f(Number(value)) * 1000) / 1000} ${to}`;
    },
  },
  {
    name: 'convert_currency',
    description: 'Converts an amount between EUR, USD and GBP at fixed demo rates.',
    inputSchema: obj({ amount: num('Amount'), from: str('EUR, USD or GBP'), to: str('EUR, USD or GBP') }),
    run: ({ amount, from, to }) => {
      const perEur = { EUR: 1, USD: 1.1, GBP: 0.85 };
      const a = perEur[String(from).toUpperCase()];
      const b = perEur[String(to).toUpperCase()];
      if (!a || !b) throw new Error('currencies must be EUR, USD or GBP');
      return `${amount} ${from} = ${((Number(amount) / a) * b).toFixed(2)} ${to} (demo rates)`;
    },
  },
  {
    name: 'translate_greeting',
    description: 'Translates "hello" into a language (en, pt, de, ja, fr, es).',
    inputSchema: obj({ language: str('Language code') }),
    run: ({ language }) =>
      ({ en: 'hello', pt: 'olá', de: 'hallo', ja: 'こんにちは', fr: 'bonjour', es: 'hola' })[String(language).toLowerCase()] ??
      'unknown language',
  },
  {
    name: 'word_count',
    description: 'Counts words, lines and characters of a text.',
    inputSchema: obj({ text: str('The text') }),
    run: ({ text }) => {
      const t = String(text);
      return `${t.split(/\s+/).filter(Boolean).length} words, ${t.split('\n').length} lines, ${t.length} characters`;
    },
  },
  {
    name: 'slugify',
    description: 'Turns a title into a URL slug (lower case, dashes).',
    inputSchema: obj({ title: str('The title') }),
    run: ({ title }) =>
      String(title)
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^\w\s-]/g, '')
        .trim()
        .replace(/[\s_]+/g, '-'),
  },
  {
    name: 'roll_dice',
    description: 'Rolls dice in NdM notation with a seed, for reproducible results.',
    inputSchema: obj({ notation: str('For example 2d6'), seed: num('Seed') }, ['notation']),
    run: ({ notation, seed = 1 }) => {
      const m = /^(\d+)d(\d+)$/.exec(String(notation));
      if (!m) throw new Error('notation must look like 2d6');
      let s = Number(seed) || 1;
      const rolls = Array.from({ length: Number(m[1]) }, () => ((s = (s * 16807) % 2147483647) % Number(m[2])) + 1);
      return `${notation}: ${rolls.join(' + ')} = ${rolls.reduce((x, y) => x + y, 0)}`;
    },
  },
  {
    name: 'time_zone_offset',
    description: 'UTC offset of a city time zone (standard time).',
    inputSchema: obj({ city: str('City name') }),
    run: ({ city }) =>
      ({ lisbon: 'UTC+0', berlin: 'UTC+1', tokyo: 'UTC+9', nairobi: 'UTC+3', reykjavik: 'UTC+0', lima: 'UTC-5' })[
        String(city).toLowerCase()
      ] ?? 'unknown',
  },
  {
    name: 'is_prime',
    description: 'Checks whether an integer is prime.',
    inputSchema: obj({ n: num('The integer') }),
    run: ({ n }) => {
      const k = Math.floor(Number(n));
      if (k < 2) return `${k} is not prime`;
      for (let d = 2; d * d <= k; d++) if (k % d === 0) return `${k} is not prime (divisible by ${d})`;
      return `${k} is prime`;
    },
  },
  {
    name: 'reverse_text',
    description: 'Reverses a text character by character.',
    inputSchema: obj({ text: str('The text') }),
    run: ({ text }) => [...String(text)].reverse().join(''),
  },
  {
    name: 'color_hex_to_rgb',
    description: 'Converts a hex colour like #ff8800 to rgb(r, g, b).',
    inputSchema: obj({ hex: str('The colour') }),
    run: ({ hex }) => {
      const m = /^#?([0-9a-f]{6})$/i.exec(String(hex));
      if (!m) throw new Error('give a 6-digit hex colour like #ff8800');
      const v = parseInt(m[1], 16);
      return `rgb(${v >> 16}, ${(v >> 8) & 255}, ${v & 255})`;
    },
  },
];

// Usage notes, as real servers send them: the host shows them to the model with the toolbox's tools
// (in tool_search results on the activeTools path, in the system prompt on native paths).
const server = new Server(
  { name: 'aibuddy-demo-toolbox', version: '1.0.0' },
  {
    capabilities: { tools: {} },
    instructions: 'Toolbox notes: temperatures are in °C, distances in km, and every value is computed offline.',
  },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = tools.find((t) => t.name === request.params.name);
  if (!tool) return { isError: true, content: [{ type: 'text', text: `unknown tool ${request.params.name}` }] };
  try {
    return { content: [{ type: 'text', text: String(tool.run(request.params.arguments ?? {})) }] };
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: error.message }] };
  }
});
await server.connect(new StdioServerTransport());
