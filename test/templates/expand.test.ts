/**
 * Template expansion through loadWorkspace: what is stamped, and every error with its exact position
 * (table-driven: each case is a small project and the issues it must produce, as `file:line:col message`).
 */
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { expandTemplates, MAX_STAMPED } from '../../src/templates/expand.ts';
import { scanReferences, substituteString } from '../../src/templates/references.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = `apiVersion: steward/v1
kind: Project
spec:
  resources: ["**/*.yaml"]
  observability: { api: hyperdx, url: "http://127.0.0.1:1", token: { env: T } }
`;

/** A template: line 7 is `service`, 8 `source`, 9 `cpuWarn`; the tile's source is line 21, colorRules 24. */
const TEMPLATE = `apiVersion: steward/v1
kind: Template
metadata: { name: jvm-runtime }
spec:
  key: service
  parameters:
    service: { type: string, description: the service name }
    source: { type: string, default: Metrics }
    cpuWarn: { type: number, default: 0.8 }
  dashboards:
    - spec:
        name: JVM runtime ($(params.service))
        tags: [service:$(params.service)]
        tiles:
          - name: CPU
            x: 0
            y: 0
            w: 6
            h: 3
            config:
              source: $(params.source)
              displayType: number
              select: [{ aggFn: avg, valueExpression: Value, metricName: jvm.cpu.recent_utilization, metricType: gauge }]
              colorRules: [{ operator: gt, value: $(params.cpuWarn), color: chart-warning }]
`;

const INSTANCES = `apiVersion: steward/v1
kind: TemplateInstance
metadata: { name: jvm-services }
spec:
  template: jvm-runtime
  parameters: { source: Metrics }
  forEach:
    - service: checkout
    - service: payments
      cpuWarn: 0.9
`;

async function load(files: Record<string, string>) {
  const p = tmpProject({ 'steward.yaml': PROJECT, ...files });
  try {
    return await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: p.dir }, {});
  } finally {
    p.cleanup();
  }
}

const show = (i: { file: string; line: number; col: number; message: string; severity: string }) =>
  `${i.severity === 'warning' ? 'warning ' : ''}${i.file}:${i.line}:${i.col} ${i.message}`;

test('three stamps: names, parameters substituted with their types, overrides per item', async () => {
  const loaded = await load({ 'templates/jvm.yaml': TEMPLATE, 'instances.yaml': INSTANCES });
  assert.equal(loaded.issues, []);
  const dashboards = loaded.resources.filter((r) => r.kind === 'Dashboard');
  assert.equal(
    dashboards.map((d) => d.name),
    ['jvm-runtime/checkout', 'jvm-runtime/payments'],
  );
  const [a, b] = dashboards.map(
    (d) => d.doc as unknown as { spec: { name: string; tags: string[]; tiles: Array<{ config: { source: string; colorRules: Array<{ value: unknown }> } }> } },
  );
  assert.is(a!.spec.name, 'JVM runtime (checkout)');
  assert.equal(a!.spec.tags, ['service:checkout']);
  assert.is(a!.spec.tiles[0]!.config.source, 'Metrics');
  assert.is(a!.spec.tiles[0]!.config.colorRules[0]!.value, 0.8, 'a whole-value reference keeps the number type');
  assert.is(b!.spec.tiles[0]!.config.colorRules[0]!.value, 0.9, 'the item overrides the default');
  assert.ok(
    dashboards.every((d) => d.file.endsWith('instances.yaml')),
    'a stamp belongs to its instance file (paths and --target narrow by it)',
  );
});

test('a single instance (no forEach) is keyed by the key parameter; without a key, by the instance name', async () => {
  const single = `apiVersion: steward/v1\nkind: TemplateInstance\nmetadata: { name: one }\nspec:\n  template: jvm-runtime\n  parameters: { service: billing }\n`;
  const loaded = await load({ 't.yaml': TEMPLATE, 'i.yaml': single });
  assert.equal(loaded.issues, []);
  assert.equal(
    loaded.resources.map((r) => r.name),
    ['jvm-runtime/billing'],
  );
  const keyless = await load({ 't.yaml': TEMPLATE.replace('  key: service\n', ''), 'i.yaml': single });
  assert.equal(keyless.issues, []);
  assert.equal(
    keyless.resources.map((r) => r.name),
    ['jvm-runtime/one'],
  );
});

test("alerts in a template: $(self.name) names the stamp's dashboard; alerts and --target see the stamped names", async () => {
  const withAlert =
    TEMPLATE.replace('    cpuWarn:', '    alertId: { type: string }\n    cpuWarn:') +
    `  alerts:
    - metadata: { id: $(params.alertId) }
      spec:
        name: CPU of $(self.key)
        threshold: $(params.cpuWarn)
        thresholdType: above
        interval: 5m
        source: tile
        tile: { dashboard: $(self.name), name: CPU }
        channel: { type: webhook, webhookId: 65f5e4a3b9e77c001a789012 }
`;
  const inst = `apiVersion: steward/v1\nkind: TemplateInstance\nmetadata: { name: s }\nspec:\n  template: jvm-runtime\n  forEach:\n    - { service: checkout, alertId: 65f5e4a3b9e77c001a000001 }\n    - { service: payments, alertId: 65f5e4a3b9e77c001a000002, cpuWarn: 0.95 }\n`;
  const handRef = `apiVersion: steward/v1\nkind: Alert\nmetadata: { name: by-hand, id: 65f5e4a3b9e77c001a000003 }\nspec:\n  name: x\n  threshold: 1\n  thresholdType: above\n  interval: 5m\n  source: tile\n  tile: { dashboard: jvm-runtime/payments, name: CPU }\n  channel: { type: webhook, webhookId: 65f5e4a3b9e77c001a789012 }\n`;
  const loaded = await load({ 't.yaml': withAlert, 'i.yaml': inst, 'a.yaml': handRef });
  assert.equal(loaded.issues.map(show), []);
  const alerts = loaded.resources.filter((r) => r.kind === 'Alert');
  assert.equal(alerts.map((a) => a.name).sort(), ['by-hand', 'jvm-runtime/checkout', 'jvm-runtime/payments']);
  const pay = alerts.find((a) => a.name === 'jvm-runtime/payments')!.doc as {
    metadata: { id: string };
    spec: { name: string; threshold: number; tile: { dashboard: string } };
  };
  assert.equal(
    [pay.metadata.id, pay.spec.name, pay.spec.threshold, pay.spec.tile.dashboard],
    ['65f5e4a3b9e77c001a000002', 'CPU of payments', 0.95, 'jvm-runtime/payments'],
  );
});

/** Every error, with the exact place it is reported at. */
const ERRORS: Array<{ name: string; files: Record<string, string>; issues: string[] }> = [
  {
    name: 'missing required parameter: at the forEach item',
    files: { 't.yaml': TEMPLATE, 'i.yaml': INSTANCES.replace('    - service: checkout\n', '    - cpuWarn: 1\n') },
    issues: ['i.yaml:8:7 missing parameter "service" of template "jvm-runtime" (string: the service name)'],
  },
  {
    name: 'missing required parameter of a single instance: at spec.parameters',
    files: {
      't.yaml': TEMPLATE,
      'i.yaml': 'apiVersion: steward/v1\nkind: TemplateInstance\nmetadata: { name: one }\nspec:\n  template: jvm-runtime\n  parameters: { source: Logs }\n',
    },
    issues: ['i.yaml:6:15 missing parameter "service" of template "jvm-runtime" (string: the service name)'],
  },
  {
    name: 'wrong type in an item: at the value',
    files: { 't.yaml': TEMPLATE, 'i.yaml': INSTANCES.replace('cpuWarn: 0.9', 'cpuWarn: high') },
    issues: ['i.yaml:10:16 parameter "cpuWarn" of template "jvm-runtime" must be a number, found the string "high"'],
  },
  {
    name: 'wrong type in the shared values: once, at the value',
    files: { 't.yaml': TEMPLATE, 'i.yaml': INSTANCES.replace('{ source: Metrics }', '{ source: [a, b] }') },
    issues: ['i.yaml:6:25 parameter "source" of template "jvm-runtime" must be a string, found a list'],
  },
  {
    name: 'enum value not allowed, with did-you-mean',
    files: {
      't.yaml': TEMPLATE.replace('    source: { type: string, default: Metrics }', '    source: { type: enum, values: [Metrics, Logs], default: Metrics }'),
      'i.yaml': INSTANCES.replace('{ source: Metrics }', '{ source: Metric }'),
    },
    issues: ['i.yaml:6:25 parameter "source" of template "jvm-runtime" must be one of "Metrics", "Logs", found the string "Metric"; did you mean "Metrics"?'],
  },
  {
    name: 'unknown parameter given: at its key, with did-you-mean',
    files: { 't.yaml': TEMPLATE, 'i.yaml': INSTANCES.replace('      cpuWarn: 0.9', '      cpuwarn: 0.9') },
    issues: ['i.yaml:10:7 template "jvm-runtime" has no parameter "cpuwarn"; did you mean "cpuWarn"?'],
  },
  {
    name: 'unknown template: at spec.template',
    files: { 't.yaml': TEMPLATE, 'i.yaml': INSTANCES.replace('template: jvm-runtime', 'template: jvm-runtim') },
    issues: [
      'i.yaml:5:13 unknown template "jvm-runtim": no Template has that metadata.name; did you mean "jvm-runtime"?',
      'warning t.yaml:3:19 template "jvm-runtime" is never used: no TemplateInstance names it',
    ],
  },
  {
    name: 'unused template: a warning at its name',
    files: { 't.yaml': TEMPLATE },
    issues: ['warning t.yaml:3:19 template "jvm-runtime" is never used: no TemplateInstance names it'],
  },
  {
    name: 'unknown parameter referenced in the template: at the string, when loading',
    files: { 't.yaml': TEMPLATE.replace('$(params.source)', '$(params.sorce)'), 'i.yaml': INSTANCES },
    issues: ['t.yaml:21:23 unknown parameter "sorce" in $(params.sorce); did you mean "source"?'],
  },
  {
    name: 'malformed reference and unknown self: at the string',
    files: { 't.yaml': TEMPLATE.replace('service:$(params.service)]', 'service:$(service), $(self.id)]'), 'i.yaml': INSTANCES },
    issues: [
      't.yaml:13:24 "$(service)" is not a reference: write $(params.NAME), $(self.key) or $(self.name); $$( is a literal "$("',
      't.yaml:13:36 unknown reference $(self.id): self has key and name',
    ],
  },
  {
    name: 'a reference inside a quoted string: at the "$(" itself',
    files: { 't.yaml': TEMPLATE.replace('name: JVM runtime ($(params.service))', 'name: "JVM ($(params.servce))"'), 'i.yaml': INSTANCES },
    issues: ['t.yaml:12:21 unknown parameter "servce" in $(params.servce); did you mean "service"?'],
  },
  {
    name: 'a list parameter inside text',
    files: {
      't.yaml': TEMPLATE.replace('    cpuWarn:', '    teams: { type: list, default: [a] }\n    cpuWarn:').replace(
        'JVM runtime ($(params.service))',
        'JVM $(params.teams)',
      ),
      'i.yaml': INSTANCES,
    },
    issues: ['t.yaml:13:19 $(params.teams) is a list: it can only stand alone as a whole value, not inside text'],
  },
  {
    name: 'a default of the wrong type, a key that is not declared',
    files: { 't.yaml': TEMPLATE.replace('default: 0.8', 'default: "x"').replace('key: service', 'key: svc'), 'i.yaml': INSTANCES },
    issues: [
      't.yaml:5:8 key names parameter "svc", which the template does not declare (parameters: service, source, cpuWarn)',
      't.yaml:9:39 default of parameter "cpuWarn" must be a number, found the string "x"',
    ],
  },
  {
    name: 'a key value that cannot name a stamp: at the value',
    files: { 't.yaml': TEMPLATE, 'i.yaml': INSTANCES.replace('service: checkout', 'service: Check Out') },
    issues: [
      "i.yaml:8:16 \"Check Out\" cannot name a stamp (it is the template's key, service): use lowercase letters, digits, '.', '_' and '-', starting and ending with a letter or digit",
    ],
  },
  {
    name: 'forEach without a key',
    files: { 't.yaml': TEMPLATE.replace('  key: service\n', ''), 'i.yaml': INSTANCES },
    issues: [
      'i.yaml:7:3 template "jvm-runtime" declares no key (spec.key), so the stamps of a forEach would all have one name: give the template a key parameter',
    ],
  },
  {
    name: 'schema error in the expansion: at the template line, naming the stamp and the instance item',
    files: { 't.yaml': TEMPLATE.replace('color: chart-warning', 'color: chart-warning, colour: red'), 'i.yaml': INSTANCES },
    issues: [
      't.yaml:24:92 unknown key "colour"; did you mean "color"? (in Dashboard jvm-runtime/checkout, a stamp of template jvm-runtime) (stamped by i.yaml:8:7)',
      't.yaml:24:92 unknown key "colour"; did you mean "color"? (in Dashboard jvm-runtime/payments, a stamp of template jvm-runtime) (stamped by i.yaml:9:7)',
    ],
  },
  {
    name: 'a parameter value the schema refuses: at the template line that uses it',
    files: {
      't.yaml': TEMPLATE.replace(
        '    source: { type: string, default: Metrics }',
        '    source: { type: string, default: Metrics }\n    width: { type: string, default: "6" }',
      ).replace('w: 6', 'w: $(params.width)'),
      'i.yaml': INSTANCES,
    },
    issues: [
      't.yaml:19:16 must be an integer, found the string "6" (in Dashboard jvm-runtime/checkout, a stamp of template jvm-runtime) (stamped by i.yaml:8:7)',
      't.yaml:19:16 must be an integer, found the string "6" (in Dashboard jvm-runtime/payments, a stamp of template jvm-runtime) (stamped by i.yaml:9:7)',
    ],
  },
  {
    name: 'two stamps with one name: the duplicate check sees stamped resources',
    files: { 't.yaml': TEMPLATE, 'i.yaml': INSTANCES.replace('service: payments', 'service: checkout') },
    issues: [
      't.yaml:11:7 duplicate Dashboard "jvm-runtime/checkout": metadata.name must be unique per kind (in Dashboard jvm-runtime/checkout, stamped by i.yaml:9:7) (first at t.yaml:11:7)',
      't.yaml:12:15 two dashboards are named "JVM runtime (checkout)": the name is the live dashboard\'s identity, so each must be unique (in Dashboard jvm-runtime/checkout, stamped by i.yaml:9:7) (first at t.yaml:12:15)',
    ],
  },
  {
    name: 'an alert referring to an unknown stamp: did-you-mean over stamped names',
    files: {
      't.yaml': TEMPLATE,
      'i.yaml': INSTANCES,
      'a.yaml':
        'apiVersion: steward/v1\nkind: Alert\nmetadata: { name: x, id: 65f5e4a3b9e77c001a000003 }\nspec:\n  name: x\n  threshold: 1\n  thresholdType: above\n  interval: 5m\n  source: tile\n  tile: { dashboard: jvm-runtime/checkut, name: CPU }\n  channel: { type: webhook, webhookId: 65f5e4a3b9e77c001a789012 }\n',
    },
    issues: ['a.yaml:10:22 unknown dashboard "jvm-runtime/checkut": no Dashboard has that metadata.name; did you mean "jvm-runtime/checkout"?'],
  },
  {
    name: 'several dashboards in a template need names',
    files: { 't.yaml': TEMPLATE + '    - spec: { name: second }\n', 'i.yaml': INSTANCES },
    issues: [
      't.yaml:11:7 this template holds 2 dashboards: give each a name (the stamped dashboard is named <template>/<key>/<name>)',
      't.yaml:25:7 this template holds 2 dashboards: give each a name (the stamped dashboard is named <template>/<key>/<name>)',
    ],
  },
  {
    name: 'an enum parameter without values: the schema says so',
    files: { 't.yaml': TEMPLATE.replace('{ type: string, default: Metrics }', '{ type: enum, default: Metrics }'), 'i.yaml': INSTANCES },
    // The template is refused when read, so its instance cannot find it either.
    issues: ['t.yaml:8:13 missing required key "values"', 'i.yaml:5:13 unknown template "jvm-runtime": no Template has that metadata.name'],
  },
];

for (const c of ERRORS) {
  test(`error: ${c.name}`, async () => {
    const loaded = await load(c.files);
    assert.equal(loaded.issues.map(show).sort(), [...c.issues].sort());
  });
}

/** A template of `n` dashboards, and an instance of it named `name` with `items` forEach items. */
const big = (n: number) =>
  `apiVersion: steward/v1\nkind: Template\nmetadata: { name: big }\nspec:\n  key: service\n  parameters:\n    service: { type: string }\n  dashboards:\n${Array.from({ length: n }, (_, i) => `    - name: d${i}\n      spec: { name: d${i} }\n`).join('')}`;
const fan = (name: string, items: number, param = 'service') =>
  `apiVersion: steward/v1\nkind: TemplateInstance\nmetadata: { name: ${name} }\nspec:\n  template: big\n  forEach:\n${Array.from({ length: items }, (_, i) => `    - ${param}: s${i}\n`).join('')}`;

test('fan-out past the budget (two small files asking for 101,000 stamps) is refused before stamping, at the forEach', async () => {
  const loaded = await load({ 't.yaml': big(1000), 'i.yaml': fan('wide', 101) });
  assert.equal(loaded.issues.map(show), [
    'i.yaml:6:3 this instance would stamp 101,000 resources (1000 per item of template "big" × 101), templates stamp at most 100,000 resources in a project',
  ]);
  assert.is(loaded.resources.filter((r) => r.kind === 'Dashboard').length, 0);
});

test('the budget is for the whole project: a second instance past it is refused, saying what the others asked', async () => {
  // The first instance's items all miss their key (nothing is stamped, but its 60,000 count against the budget).
  const loaded = await load({ 't.yaml': big(1000), 'a.yaml': fan('first', 60, 'servic'), 'b.yaml': fan('second', 41) });
  const shown = loaded.issues.map(show);
  assert.ok(
    shown.includes(
      'b.yaml:6:3 this instance would stamp 41,000 resources (1000 per item of template "big" × 41), after 60,000 stamped by other instances; templates stamp at most 100,000 resources in a project',
    ),
    shown.slice(-3).join('\n'),
  );
  assert.is(MAX_STAMPED, 100_000);
});

test('references: $$( is a literal, whole references keep their type, text references are written in', () => {
  const v = (ns: string, n: string) => (ns === 'params' ? ({ n: 5, s: 'x', l: [1, 2] } as Record<string, unknown>)[n] : 'k');
  const sub = (s: string) => substituteString(s, scanReferences(s), v);
  assert.is(sub('$(params.n)'), 5);
  assert.equal(sub('$(params.l)'), [1, 2]);
  assert.is(sub('a $(params.n) b $(params.s)'), 'a 5 b x');
  assert.is(sub('cost $$(x) $(self.key)'), 'cost $(x) k');
  assert.is(sub('${HOME} and {{URL}} stay'), '${HOME} and {{URL}} stay');
  assert.equal(
    scanReferences('$(params.a').map((t) => t.type),
    ['bad'],
  );
});

test('expandTemplates is pure: the input is not changed, and expanding twice gives the same', async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT, 't.yaml': TEMPLATE, 'i.yaml': INSTANCES });
  try {
    // Load without expansion results: take the raw resources from a load, then expand them by hand.
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: p.dir }, {});
    assert.equal(loaded.issues, []);
    const { processFile } = await import('../../src/config/resources.ts');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const raw = ['t.yaml', 'i.yaml'].flatMap((f) => processFile(join(p.dir, f), readFileSync(join(p.dir, f)), {}, { isProjectFile: false }).resources);
    const before = JSON.stringify(raw);
    const a = expandTemplates(raw);
    const b = expandTemplates(raw);
    assert.is(JSON.stringify(raw), before);
    assert.equal(a.resources, b.resources);
    assert.equal(
      a.resources.map((r) => r.name),
      loaded.resources.map((r) => r.name),
    );
  } finally {
    p.cleanup();
  }
});

test('the parse cache keeps templates and instances: a second load stamps the same', async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT, 't.yaml': TEMPLATE, 'i.yaml': INSTANCES });
  try {
    // The cache's machine key lives under XDG_CACHE_HOME (without it, or HOME, there is no cache).
    const env = { XDG_CACHE_HOME: `${p.dir}/.xdg` };
    const first = await loadWorkspace({ fs: nodeFileSystem, env, cwd: p.dir }, { cache: true });
    const second = await loadWorkspace({ fs: nodeFileSystem, env, cwd: p.dir }, { cache: true });
    assert.is(second.stats.parsed, 0, 'every file came from the cache');
    assert.equal(second.issues, []);
    assert.equal(second.resources, first.resources);
  } finally {
    p.cleanup();
  }
});

test('property: expansion never throws, whatever the instance gives, and every problem has a place', async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT, 't.yaml': TEMPLATE, 'i.yaml': INSTANCES });
  try {
    const { processFile } = await import('../../src/config/resources.ts');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const [template] = processFile(join(p.dir, 't.yaml'), readFileSync(join(p.dir, 't.yaml')), {}, { isProjectFile: false }).resources;
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.double(),
      fc.integer(),
      fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 3 }),
      fc.constant(null),
      fc.boolean(),
    );
    const params = fc.dictionary(fc.constantFrom('service', 'source', 'cpuWarn', 'other', 'Service'), value, { maxKeys: 4 });
    fc.assert(
      fc.property(params, fc.option(fc.array(params, { minLength: 1, maxLength: 4 }), { nil: undefined }), (shared, forEach) => {
        const inst = {
          kind: 'TemplateInstance',
          name: 'i',
          file: '/i.yaml',
          index: 0,
          doc: {
            apiVersion: 'steward/v1',
            kind: 'TemplateInstance',
            metadata: { name: 'i' },
            spec: { template: 'jvm-runtime', parameters: shared, ...(forEach ? { forEach } : {}) },
          },
        };
        const x = expandTemplates([template!, inst as never]);
        for (const pr of x.problems) assert.ok(pr.pointer.startsWith('/') || pr.pointer === '', pr.message);
        for (const r of x.resources) assert.ok(r.name.startsWith('jvm-runtime/'));
      }),
      { numRuns: 300, seed: 16 },
    );
  } finally {
    p.cleanup();
  }
});

test.run();
