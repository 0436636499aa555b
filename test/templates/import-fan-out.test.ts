/**
 * import --template: HyperDX's six dashboard templates become steward Templates that load and stamp valid
 * dashboards, and examples/templates/ is exactly what the import writes. Fan-out: the summary of a plan.
 */
import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processFile } from '../../src/config/resources.ts';
import type { Plan, PlanItem } from '../../src/plan/types.ts';
import { expandTemplates } from '../../src/templates/expand.ts';
import { fanOut, fanOutLine, templateOf } from '../../src/templates/fan-out.ts';
import { importHyperdxTemplate, sourceParameter } from '../../src/templates/import-hyperdx.ts';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const HYPERDX_TEMPLATES = join(EXAMPLES, '../test/fixtures/hyperdx-templates');
const SHARED = '/work/shared/contracts/hyperdx/dashboard-templates';
/** The six files: the repository's copies (CI has only the repository), else the shared contracts. */
const SOURCE = existsSync(HYPERDX_TEMPLATES) ? HYPERDX_TEMPLATES : SHARED;
const NAMES: Record<string, string> = { 'jvm-runtime-metrics.json': 'jvm-runtime' };

for (const file of readdirSync(SOURCE)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const name = NAMES[file] ?? file.replace(/\.json$/, '');
  test(`import ${file}: loads, stamps a valid dashboard, and is examples/templates/${name}.yaml`, () => {
    const json = JSON.parse(readFileSync(join(SOURCE, file), 'utf8')) as { tiles: unknown[] };
    const r = importHyperdxTemplate(json, { name, schemaPath: '../../schemas/template.schema.json', sourceFile: file });
    const loaded = processFile(`/x/${name}.yaml`, Buffer.from(r.text), {}, { isProjectFile: false });
    assert.equal(loaded.issues, []);
    const inst = {
      kind: 'TemplateInstance',
      name: 'i',
      file: '/x/i.yaml',
      index: 0,
      doc: { apiVersion: 'steward/v1', kind: 'TemplateInstance', metadata: { name: 'i' }, spec: { template: name, parameters: { service: 'checkout' } } },
    };
    const x = expandTemplates([...loaded.resources, inst as never]);
    assert.equal(x.problems, []);
    const d = x.resources[0]!.doc as unknown as { spec: { tiles: Array<{ config: { select?: Array<{ where: string }> } }> } };
    assert.is(x.resources[0]!.name, `${name}/checkout`);
    assert.ok(d.spec.tiles.length > 0);
    for (const t of d.spec.tiles) for (const s of t.config.select ?? []) assert.match(s.where, 'checkout', 'every series is narrowed to the service');
    // HyperDX's own {{...}} templates (a table tile's onClick) reach the stamped dashboard unchanged.
    if (name === 'browser-rum') assert.match(JSON.stringify(d), 'SpanAttributes.http.url:\\"{{URL}}\\"');
    assert.fixture(r.text, readFileSync(join(EXAMPLES, 'templates', `${name}.yaml`), 'utf8'));
  });
}

test('import: sources become parameters, text that looks like a reference stays literal, duplicate tile names are told', () => {
  assert.is(sourceParameter('Metrics'), 'metricsSource');
  assert.is(sourceParameter('My logs 2'), 'myLogs2Source');
  const r = importHyperdxTemplate(
    {
      name: 'T',
      tiles: [
        {
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          config: {
            name: 'A',
            source: 'Logs',
            displayType: 'line',
            select: [{ aggFn: 'count', valueExpression: '' }],
            where: 'Body:"$(x) ${HOME}"',
            whereLanguage: 'lucene',
          },
        },
        {
          x: 6,
          y: 0,
          w: 6,
          h: 3,
          config: { name: 'A', source: 'Traces', displayType: 'number', select: [{ aggFn: 'avg', valueExpression: 'Duration' }], granularity: 'auto' },
        },
      ],
    },
    { name: 't', schemaPath: 's', sourceFile: 't.json' },
  );
  assert.match(r.text, 'logsSource: { type: string, default: Logs');
  assert.match(r.text, 'tracesSource: { type: string, default: Traces');
  assert.match(r.text, `where: (Body:"$$(x) $\${HOME}") AND ServiceName:"$(params.service)"`);
  assert.match(r.text, '- name: A (2)');
  assert.equal(r.warnings, ['two tiles are named "A": the second is "A (2)" (steward matches tiles by name)', 'left out (no API form): granularity']);
  const loaded = processFile('/x/t.yaml', Buffer.from(r.text), { HOME: '/root' }, { isProjectFile: false });
  assert.equal(loaded.issues, []);
  const x = expandTemplates([
    ...loaded.resources,
    {
      kind: 'TemplateInstance',
      name: 'i',
      file: '/x/i.yaml',
      index: 0,
      doc: { apiVersion: 'steward/v1', kind: 'TemplateInstance', metadata: { name: 'i' }, spec: { template: 't', parameters: { service: 'web' } } },
    } as never,
  ]);
  const tile = (x.resources[0]!.doc as unknown as { spec: { tiles: Array<{ config: { select: Array<{ where: string }> } }> } }).spec.tiles[0]!;
  assert.is(tile.config.select[0]!.where, '(Body:"$(x) ${HOME}") AND ServiceName:"web"');
});

test('steward import --template writes the file (no project needed), refuses to overwrite without --force', async () => {
  const p = tmpProject({});
  try {
    const file = join(SOURCE, 'go-runtime.json');
    const r = await steward(['import', '--template', file, '--out', 'tpl'], { cwd: p.dir });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, 'Imported template go-runtime → tpl/go-runtime.yaml');
    assert.match(readFileSync(join(p.dir, 'tpl/go-runtime.yaml'), 'utf8'), 'kind: Template');
    const again = await steward(['import', '--template', file, '--out', 'tpl'], { cwd: p.dir });
    assert.is(again.code, 1);
    assert.match(again.stdout, 'it exists (use --force to overwrite)');
    // A name whose file Windows cannot check out (or steward.yaml) is refused, not changed: instances name it.
    for (const name of ['con', 'nul.v2', 'steward']) {
      const reserved = await steward(['import', '--template', file, '--out', 'tpl', '--template-name', name], { cwd: p.dir });
      assert.is(reserved.code, 1, reserved.stdout);
      assert.match(reserved.stderr, `--template-name ${name}: ${name}.yaml is a file name Windows or steward reserves`);
      assert.not.ok(existsSync(join(p.dir, `tpl/${name}.yaml`)));
    }
    const bad = await steward(['import', '--template', join(p.dir, 'nope.json')], { cwd: p.dir });
    assert.is(bad.code, 1);
    assert.match(bad.stderr, 'no such file');
    // A device (read forever) or a folder is not a template file: one line.
    for (const odd of ['/dev/zero', p.dir]) {
      const r = await steward(['import', '--template', odd], { cwd: p.dir });
      assert.is(r.code, bad.code, r.stderr);
      assert.match(r.stderr, `--template ${odd}: not a regular file`);
    }
  } finally {
    p.cleanup();
  }
});

test('import --template: a hostile template file plants no document, reads no variable and writes no escape to the terminal', async () => {
  const p = tmpProject({});
  try {
    const line = (name: string, extra: Record<string, unknown> = {}) => ({
      x: 0,
      y: 0,
      w: 6,
      h: 3,
      config: { name, displayType: 'line', source: 'Logs', select: [{ aggFn: 'count', valueExpression: '' }], ...extra },
    });
    const hostile = {
      name: 'Runtime',
      description: 'by ${GITHUB_TOKEN:-x}',
      tags: ['team ${USER:-nobody}'],
      tiles: [
        line('Memory ${GITHUB_TOKEN:-}'),
        line('CPU ${HOME}', { source: 'Logs ${HOME}' }),
        {
          ...line('Extra'),
          config: {
            name: 'Extra\u001b[2J\u001b]0;PWNED\u0007',
            displayType: 'gauge\n---\napiVersion: steward/v1\nkind: Dashboard\nmetadata: {name: injected}\nspec:\n  name: Injected\n  tiles: []\n---\n#',
          },
        },
      ],
    };
    writeFileSync(join(p.dir, 'evil.json'), JSON.stringify(hostile));
    const r = await steward(['import', '--template', 'evil.json', '--out', 'tpl'], {
      cwd: p.dir,
      env: { HOME: '/home/someone', GITHUB_TOKEN: 'ghp_secretvalue123' },
    });
    assert.is(r.code, 0, r.stdout + r.stderr);
    // The terminal gets the escape shown, not sent.
    assert.not.match(r.stdout, '\u001b');
    assert.match(r.stdout, '\\e[2J');
    // The file holds one document, the Template; references from the file are text.
    const text = readFileSync(join(p.dir, 'tpl/evil.yaml'), 'utf8');
    const loaded = processFile(
      join(p.dir, 'tpl/evil.yaml'),
      Buffer.from(text),
      { HOME: '/home/someone', GITHUB_TOKEN: 'ghp_secretvalue123' },
      { isProjectFile: false },
    );
    assert.equal(
      loaded.issues.filter((i) => i.severity === 'error'),
      [],
    );
    assert.equal(
      loaded.resources.map((x) => x.kind),
      ['Template'],
    );
    assert.not.match(JSON.stringify(loaded.resources), 'ghp_secretvalue123');
    assert.not.match(JSON.stringify(loaded.resources), '/home/someone');
    assert.match(JSON.stringify(loaded.resources), 'Memory ${GITHUB_TOKEN:-}');
    // Each source a parameter of its own (two names that read alike would have shared one).
    assert.match(text, 'logsSource:');
    assert.match(text, 'logsHOMESource:');
  } finally {
    p.cleanup();
  }
});

function item(name: string, action: PlanItem['action'], patch: PlanItem['patch'], kind: PlanItem['kind'] = 'Dashboard'): PlanItem {
  // The fan-out reads kind, name, action and patch only: the bodies and ids an action needs are left out.
  return { kind, name, action, message: '', patch, file: 'f.yaml' } as PlanItem;
}

test('fan-out: one line per template with changed stamps; hand-written and unchanged items are not counted', () => {
  // GIVEN a plan where a template's threshold changed in two of its stamps, a third is unchanged
  const same = [{ op: 'replace' as const, path: '/tiles/CPU/config/colorRules/0/value', value: 0.75 }];
  const plan = {
    items: [
      item('jvm-runtime/a', 'update', same),
      item('jvm-runtime/b', 'update', same),
      item('jvm-runtime/c', 'noop', []),
      item('checkout-overview', 'update', [{ op: 'replace', path: '/name', value: 'x' }]),
      item('go-runtime/a', 'create', [{ op: 'add', path: '/name', value: 'x' }]),
      item('go-runtime/a', 'update', [{ op: 'replace', path: '/threshold', value: 2 }], 'Alert'),
      item('go-runtime/b', 'update', [
        { op: 'replace', path: '/tags/0', value: 'x' },
        { op: 'replace', path: '/tiles/Heap~1GC/h', value: 4 },
      ]),
      // An orphan is named after the live dashboard, which may hold "/": it is no template's.
      { kind: 'Dashboard', name: 'ops/x', action: 'blocked', reason: 'orphan', message: '', patch: [] },
    ],
  } as unknown as Plan;
  // WHEN it is summarized
  const f = fanOut(plan);
  // THEN
  assert.equal(f.map(fanOutLine), [
    'template go-runtime: 2 dashboards, 1 alert, 1 tile changed ("Heap/GC"), tags changed (1 to create, 2 to update)',
    'template jvm-runtime: 2 dashboards, 1 tile changed ("CPU"), the same change in each (2 to update)',
  ]);
  assert.is(templateOf('checkout-overview'), undefined);
  assert.is(templateOf('jvm-runtime/a/heap'), 'jvm-runtime');
});

test.run();
