/**
 * Invalid input, table-driven: each case is a small project with one bad file, run through the built CLI
 * as a user would. Every case must end with exit 1, the problem at its exact line:col, and no stack trace.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = `apiVersion: steward/v1
kind: Project
spec:
  resources: ["**/*.yaml"]
`;

// A dashboard every case can refer to.
const DASH = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: shop }
spec:
  name: Shop
  tiles:
    - { name: Errors, x: 0, y: 0, w: 6, h: 3 }
`;

const alert = (spec: string, meta = 'name: a1\n  id: 65f5e4a3b9e77c001a000001') => `apiVersion: steward/v1
kind: Alert
metadata:
  ${meta}
spec:
${spec}`;

const GOOD_ALERT_SPEC = `  name: A
  threshold: 5
  thresholdType: above
  interval: 5m
  source: tile
  tile: { dashboard: shop, name: Errors }
  channel: { type: webhook, webhookId: 65f5e4a3b9e77c001a0000aa }
`;

interface Case {
  name: string;
  /** Files written beside steward.yaml and dash.yaml (a value of null removes dash.yaml). */
  files: Record<string, string | Buffer>;
  /** Expected `file:line:col` of the (first) problem, and a substring of its message. */
  where: string;
  message: string | RegExp;
  args?: string[];
  env?: Record<string, string>;
  /** How many problems the run may report in all (unset: any number). */
  problems?: number;
}

const deep = (n: number) => `apiVersion: steward/v1\nkind: CloudService\nmetadata: { name: c }\nspec:\n  x: ${'['.repeat(n)}${']'.repeat(n)}\n`;

const cases: Case[] = [
  {
    name: 'broken YAML: unclosed flow sequence',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nspec: { tags: [a, b\n' },
    // At the [ that is never closed, not at the end of the file where the parser gave up (issue 14).
    where: 'bad.yaml:3:15',
    message: 'this [ is never closed: end it with ] before line 4, col 1',
  },
  {
    name: 'broken YAML: unclosed quoted string points at its opening quote',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata:\n  name: "shop2\nspec:\n  name: S\n' },
    where: 'bad.yaml:4:9',
    message: 'this "-quoted string is never closed',
  },
  {
    name: 'broken YAML: alias without an anchor, in the second document of a file',
    files: {
      'bad.yaml':
        'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d2 }\nspec: { name: D, tiles: [] }\n---\napiVersion: steward/v1\nkind: Dashboard\nmetadata:\n  name: *nope\nspec: { name: E, tiles: [] }\n',
    },
    where: 'bad.yaml:9:9',
    message: 'Unresolved alias',
  },
  {
    name: 'unquoted ${VAR} in a flow map: one problem, not an echo on every later line',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d3 }\nspec:\n  name: D\n  tags: {a: ${X}, b: 2}\n  tiles: []\n' },
    env: { X: '1' },
    problems: 1,
    where: 'bad.yaml:6:',
    message: 'write "${VAR}" in quotes',
  },
  {
    name: 'broken YAML: bad indentation',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nkind: Dashboard\n metadata: x\n' },
    where: 'bad.yaml:2:7',
    message: 'Implicit keys need to be on a single line',
  },
  {
    name: 'broken YAML: tab indentation',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata:\n\tname: x\n' },
    where: 'bad.yaml:4:1',
    message: /YAML: /,
  },
  {
    name: 'duplicate key in one mapping',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC + '  threshold: 7\n') },
    where: 'bad.yaml:14:3',
    message: 'a key appears twice',
  },
  {
    name: 'wrong type: threshold is a word',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('threshold: 5', 'threshold: fifty')) },
    where: 'bad.yaml:8:14',
    message: 'must be a number, found the string "fifty"',
  },
  {
    name: 'wrong type: tiles is a string',
    files: {
      'bad.yaml': DASH.replace('shop', 'shop2')
        .replace('name: Shop', 'name: Shop2')
        .replace(/tiles:[\s\S]*/, 'tiles: none\n'),
    },
    where: 'bad.yaml:6:10',
    message: 'must be a list, found the string "none"',
  },
  {
    name: 'wrong type: grid number is a float',
    files: { 'bad.yaml': DASH.replace('shop', 's3').replace('Shop', 'S3').replace('x: 0', 'x: 1.5') },
    where: 'bad.yaml:7:26',
    message: 'must be an integer, found number 1.5',
  },
  {
    name: 'unknown key with a near miss',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('threshold: 5', 'threshold: 5\n  thresold: 5')) },
    where: 'bad.yaml:9:3',
    message: 'unknown key "thresold"; did you mean "threshold"?',
  },
  {
    name: 'unknown top-level key',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC) + 'metdata: {}\n' },
    where: 'bad.yaml:14:1',
    message: 'unknown key "metdata"; did you mean "metadata"?',
  },
  {
    name: 'unknown key without a near miss lists the known ones',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC + '  colour: red\n') },
    where: 'bad.yaml:14:3',
    message: 'unknown key "colour" (known keys: name, message, threshold',
  },
  {
    name: 'missing required spec.name',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: x }\nspec:\n  tags: [a]\n' },
    where: 'bad.yaml:5:3',
    message: 'missing required key "name"',
  },
  {
    name: 'missing metadata',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nspec: { name: X }\n' },
    where: 'bad.yaml:1:1',
    message: 'missing required key "metadata"',
  },
  {
    name: 'alert without id (the API cannot create alerts)',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC, 'name: a9') },
    where: 'bad.yaml:4:3',
    message: 'missing required key "id"',
  },
  {
    name: 'bad enum: thresholdType',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('thresholdType: above', 'thresholdType: over')) },
    where: 'bad.yaml:9:18',
    message: 'must be one of above, below, above_exclusive, below_or_equal, equal, not_equal, between, not_between; found the string "over"',
  },
  {
    name: 'bad enum with a near miss',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('source: tile', 'source: tiles')) },
    where: 'bad.yaml:11:11',
    message: 'did you mean "tile"?',
  },
  {
    name: 'bad interval: words',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('interval: 5m', 'interval: 5 minutes')) },
    where: 'bad.yaml:10:13',
    message: 'the string "5 minutes" is not valid: must be a number followed by m, h or d',
  },
  {
    name: 'bad interval: zero',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('interval: 5m', 'interval: 0m')) },
    where: 'bad.yaml:10:13',
    message: 'the string "0m" is not valid',
  },
  {
    name: 'bad interval: seconds',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('interval: 5m', 'interval: 30s')) },
    where: 'bad.yaml:10:13',
    message: 'the string "30s" is not valid',
  },
  {
    name: 'bad channel type',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('type: webhook', 'type: email')) },
    where: 'bad.yaml:13:20',
    message: 'must be one of webhook',
  },
  {
    name: 'webhook id not 24 hex',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('65f5e4a3b9e77c001a0000aa', 'hook-1')) },
    where: 'bad.yaml:13:40',
    message: 'the string "hook-1" is not valid: must be 24 lowercase hex characters',
  },
  {
    name: 'source tile without tile',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace(/  tile: .*\n/, '')) },
    where: 'bad.yaml:7:3',
    message: 'missing required key "tile"',
  },
  {
    name: 'wrong apiVersion',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC).replace('steward/v1', 'steward/v2') },
    where: 'bad.yaml:1:13',
    message: 'must be "steward/v1"',
  },
  {
    name: 'unknown kind with a near miss',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nkind: Dashbord\n' },
    where: 'bad.yaml:2:7',
    message: 'did you mean "Dashboard"?',
  },
  {
    name: 'missing kind',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nmetadata: { name: x }\n' },
    where: 'bad.yaml:1:1',
    message: 'missing required key "kind"',
  },
  // The seed API (HyperDX 2025-11) takes any integer position, so only the newer profiles refuse it.
  {
    name: 'grid column out of range (hyperdx profile)',
    files: {
      'steward.yaml': PROJECT + '  observability: { api: hyperdx }\n',
      'bad.yaml': DASH.replace('shop', 's4').replace('Shop', 'S4').replace('x: 0', 'x: 30'),
    },
    where: 'bad.yaml:7:26',
    message: 'x is 30; the hyperdx API takes 0 to 23',
  },
  {
    name: 'config tiles on the seed profile',
    files: { 'bad.yaml': DASH.replace('shop', 's6').replace('Shop', 'S6').replace('h: 3 }', 'h: 3, config: { displayType: markdown, markdown: hi } }') },
    where: 'bad.yaml:7:',
    message: 'tiles in the config form need observability.api: hyperdx or clickstack-cloud',
  },
  {
    name: 'cloud ids must be uuids',
    files: {
      'bad.yaml':
        'apiVersion: steward/v1\nkind: CloudService\nmetadata: { name: c }\nspec:\n  organizationId: 6f1c\n  serviceId: 9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d\n',
    },
    where: 'bad.yaml:5:19',
    message: 'must be a UUID',
  },
  {
    name: 'duplicate metadata.name per kind across files',
    files: { 'bad.yaml': DASH.replace('name: Shop', 'name: Shop again') },
    where: 'dash.yaml:3:19',
    message: /duplicate Dashboard "shop".*first at bad\.yaml:3:19/,
  },
  {
    name: 'duplicate dashboard names',
    files: { 'bad.yaml': DASH.replace('{ name: shop }', '{ name: shop-copy }') },
    where: 'dash.yaml:5:9',
    message: /two dashboards are named "Shop".*first at bad\.yaml:5:9/,
  },
  {
    name: 'duplicate tile names in a dashboard',
    files: { 'bad.yaml': DASH.replace('shop', 's5').replace('Shop', 'S5') + '    - { name: Errors, x: 6, y: 0, w: 6, h: 3 }\n' },
    where: 'bad.yaml:8:15',
    message: 'duplicate tile name "Errors"',
  },
  {
    name: 'alert refers to an unknown dashboard',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('dashboard: shop', 'dashboard: shpo')) },
    where: 'bad.yaml:12:22',
    message: 'unknown dashboard "shpo": no Dashboard has that metadata.name; did you mean "shop"?',
  },
  {
    name: 'alert refers to an unknown tile',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('name: Errors', 'name: Error')) },
    where: 'bad.yaml:12:34',
    message: 'has no tile named "Error"; did you mean "Errors"?',
  },
  {
    name: 'two alerts with one id',
    files: { 'a.yaml': alert(GOOD_ALERT_SPEC), 'bad.yaml': alert(GOOD_ALERT_SPEC, 'name: a2\n  id: 65f5e4a3b9e77c001a000001') },
    where: 'bad.yaml:5:7',
    message: 'two alerts set alert id 65f5e4a3b9e77c001a000001',
  },
  {
    name: 'unset variable in a resource',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('threshold: 5', 'threshold: ${ERROR_THRESHOLD}')) },
    where: 'bad.yaml:8:14',
    message: 'environment variable ERROR_THRESHOLD is not set',
  },
  {
    name: 'malformed variable reference',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC.replace('name: A', 'name: "A ${oops"')) },
    where: 'bad.yaml:7:9',
    message: 'unterminated "${"',
  },
  { name: 'empty file', files: { 'bad.yaml': '' }, where: 'bad.yaml:1:1', message: 'file has no documents' },
  { name: 'only comments', files: { 'bad.yaml': '# nothing here\n' }, where: 'bad.yaml:1:1', message: 'file has no documents' },
  {
    name: 'a file that is not YAML (prose)',
    files: { 'bad.yaml': 'This is a shopping list, not a dashboard.\n' },
    where: 'bad.yaml:1:1',
    message: 'expected a mapping with apiVersion, kind, metadata and spec; found string',
  },
  { name: 'a list instead of a mapping', files: { 'bad.yaml': '- a\n- b\n' }, where: 'bad.yaml:1:1', message: 'found a list' },
  {
    name: 'a 5 MB file',
    files: { 'bad.yaml': Buffer.alloc(5 * 1024 * 1024, 'a') },
    where: 'bad.yaml:1:1',
    message: 'file is 5.0 MiB; steward reads files up to 4 MiB',
  },
  { name: 'deep nesting', files: { 'bad.yaml': deep(200) }, where: 'bad.yaml:5:', message: 'nesting deeper than 64 levels' },
  {
    name: '__proto__ key is just an unknown key',
    files: { 'bad.yaml': alert(GOOD_ALERT_SPEC + '  __proto__: { polluted: true }\n') },
    where: 'bad.yaml:14:3',
    message: 'unknown key "__proto__"',
  },
  {
    name: 'constructor key is just an unknown key',
    files: { 'bad.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: x, constructor: { name: y } }\nspec: { name: X }\n' },
    where: 'bad.yaml:3:22',
    message: 'unknown key "constructor"',
  },
  {
    name: 'non-UTF-8 file',
    files: { 'bad.yaml': Buffer.concat([Buffer.from('apiVersion: steward/v1\nkind: Dashboard # caf'), Buffer.from([0xe9]), Buffer.from('\n')]) },
    where: 'bad.yaml:2:22',
    message: 'file is not valid UTF-8 (byte 0xe9',
  },
  { name: 'binary file', files: { 'bad.yaml': Buffer.from([0x61, 0x3a, 0x20, 0x00, 0x01, 0x02]) }, where: 'bad.yaml:1:4', message: 'NUL byte' },
  {
    name: 'alias bomb',
    files: {
      'bad.yaml':
        'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
    },
    where: 'bad.yaml:1:1',
    message: /alias/i,
  },
  { name: 'a Project document among resources', files: { 'bad.yaml': PROJECT }, where: 'bad.yaml:2:7', message: 'belongs in the project file' },
  {
    name: 'project file: unknown key',
    files: { 'steward.yaml': PROJECT + '  resorces: []\n' },
    where: 'steward.yaml:5:3',
    message: 'did you mean "resources"?',
  },
  {
    name: 'project file: secret written inline',
    files: { 'steward.yaml': PROJECT + '  observability: { url: "http://x", token: "abc123" }\n' },
    where: 'steward.yaml:5:44',
    message: 'secrets are never written in files',
  },
  {
    name: 'project file: unknown --env',
    files: {},
    args: ['--env', 'prod'],
    where: 'steward.yaml:4:3',
    message: '--env prod: no such environment in spec.environments (the project defines none)',
  },
];

async function runCase(c: Case) {
  const files: Record<string, string | Buffer> = { 'steward.yaml': PROJECT, 'dash.yaml': DASH, ...c.files };
  const p = tmpProject(files);
  try {
    return await steward(['validate', ...(c.args ?? [])], { cwd: p.dir, env: c.env });
  } finally {
    p.cleanup();
  }
}

// Spawning is the slow part: run every case up front, a few at a time, then assert one test per case.
const results = new Map<Case, Awaited<ReturnType<typeof runCase>>>();
test.before(async () => {
  const queue = [...cases];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) results.set(c, await runCase(c));
    }),
  );
});

for (const c of cases) {
  test(c.name, () => {
    const r = results.get(c)!;
    const out = r.stdout + r.stderr;
    assert.is(r.code, 1, `exit code\n${out}`);
    assert.not.match(out, /\n\s+at .+:\d+:\d+/, 'no stack trace');
    const line = out.split('\n').find((l) => l.startsWith(c.where) && (typeof c.message === 'string' ? l.includes(c.message) : c.message.test(l)));
    assert.ok(line, `expected a line starting ${c.where} with ${String(c.message)}; got:\n${out}`);
    if (c.problems !== undefined) assert.is(out.split('\n').filter((l) => /^\S+:\d+:\d+ .*error: /.test(l)).length, c.problems, out);
  });
}

test(`at least 30 invalid inputs are covered (${cases.length})`, () => {
  assert.ok(cases.length >= 30);
});

test.run();
