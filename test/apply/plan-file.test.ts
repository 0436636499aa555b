import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bindingFile, checkBinding, firstDifference, planDigest, planShapeProblem, projectName, seededIds } from '../../src/apply/plan-file.ts';
import type { AlertBody } from '../../src/model/alert.ts';
import type { AlertItem, Plan, PlanBinding } from '../../src/plan/types.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../src/plan/fingerprint.ts';

const binding: PlanBinding = {
  project: 'p',
  file: 'steward.yaml',
  server: 'https://obs.example.com',
  idSeed: '0'.repeat(24),
  options: { targets: [], paths: [], prune: false, reassertAlerts: false },
};
/** An alert body as a plan carries it (the digest covers bodies). */
const ALERT: AlertBody = {
  name: 'a',
  threshold: 1,
  thresholdType: 'above',
  interval: '5m',
  source: 'tile',
  channel: { type: 'webhook', webhookId: '65f5e4a3b9e77c001a0000aa' },
};

// Overrides may make any item (a noop, an update without an id): the digest reads plans as files hold them.
const item = (over: Record<string, unknown> = {}): AlertItem =>
  ({
    kind: 'Alert',
    name: 'a',
    action: 'update',
    id: 'x1',
    message: 'm',
    patch: [],
    body: { ...ALERT, threshold: 1 },
    ...over,
  }) as AlertItem;

test("the digest covers the items and every part of the binding, not the service's validation advice", () => {
  const d = planDigest([item()], binding);
  assert.match(d, /^sha256:[0-9a-f]{64}$/);
  assert.is(planDigest([item({ serverValidation: { valid: true, errors: [] } })], binding), d);
  assert.is.not(planDigest([item({ body: { ...ALERT, threshold: 2 } })], binding), d);
  for (const b of [
    { ...binding, server: 'https://other' },
    { ...binding, project: 'q' },
    { ...binding, file: 'x/steward.yaml' },
    { ...binding, env: 'staging' },
    { ...binding, options: { ...binding.options, prune: true } },
  ]) {
    assert.is.not(planDigest([item()], b), d);
  }
});

test('the digest is sha256 of the canonical text of { items, binding }, as plans saved before it was streamed say', () => {
  const whole = (items: AlertItem[], b: PlanBinding) =>
    `sha256:${createHash('sha256')
      .update(canonicalJson({ items: items.map(({ serverValidation: _v, ...rest }) => rest), binding: b }))
      .digest('hex')}`;
  const rows: Array<[string, AlertItem[], PlanBinding]> = [
    ['no items', [], binding],
    ['one item', [item()], binding],
    [
      'three, one with validation advice',
      [item(), item({ name: 'b', serverValidation: { valid: false, errors: ['x'] } }), item({ name: 'c', id: undefined })],
      binding,
    ],
    ['an environment', [item()], { ...binding, env: 'staging' }],
  ];
  for (const [what, items, b] of rows) assert.is(planDigest(items, b), whole(items, b), what);
});

test('firstDifference names the item and the fields', () => {
  assert.is(firstDifference([item()], [item()]), undefined);
  assert.is(firstDifference([item({ body: { ...ALERT, threshold: 9 } })], [item()]), 'alert a (x1) differs in body');
  assert.is(firstDifference([item(), item({ name: 'b', id: 'x2' })], [item()]), 'the plan has alert b (x2), which the files do not give');
  assert.is(firstDifference([item()], [item(), item({ name: 'b', id: 'x2' })]), 'the files give alert b (x2), which the plan lacks');
  assert.is(firstDifference([item({ name: 'b', id: 'x2' }), item()], [item(), item({ name: 'b', id: 'x2' })]), 'the items are in another order');
});

test('the project file is bound relative to the repository root, else absolutely; the name is read from the file', async () => {
  const p = tmpProject({
    'repo/ops/steward.yaml': 'apiVersion: steward/v1\nkind: Project\nmetadata: { name: acme }\nspec: {}\n',
    'loose/steward.yaml': 'kind: Project\n',
  });
  try {
    mkdirSync(join(p.dir, 'repo/.git'));
    assert.is(bindingFile(join(p.dir, 'repo/ops/steward.yaml')), 'ops/steward.yaml');
    assert.is(bindingFile(join(p.dir, 'loose/steward.yaml')), join(p.dir, 'loose/steward.yaml'));
    assert.is(await projectName(join(p.dir, 'repo/ops/steward.yaml')), 'acme');
    assert.is(await projectName(join(p.dir, 'loose/steward.yaml')), '');
  } finally {
    p.cleanup();
  }
});

test('seeded ids repeat for the same seed and differ within one plan', () => {
  const a = seededIds('abc');
  const b = seededIds('abc');
  const first = [a(), a(), a()];
  assert.equal([b(), b(), b()], first);
  assert.is(new Set(first).size, 3);
  for (const id of first) assert.match(id, /^[0-9a-f]{24}$/);
});

test('a plan nested thousands of levels deep is refused without walking it recursively', async () => {
  let deep: unknown = {};
  for (let i = 0; i < 20_000; i++) deep = { a: deep };
  assert.match((await planShapeProblem({ items: [{ body: deep }] }))!, 'nests deeper than 64 levels');
});

test('shape problems name where', async () => {
  assert.is(await planShapeProblem(null), 'the top level must be object');
  assert.match((await planShapeProblem({ formatVersion: 1 }))!, 'the top level must have');
});

test('a plan of another format version, or a value outside a fixed set, says what was expected and found', async () => {
  // GIVEN a plan written by a newer steward (formatVersion 2) THEN the version is named first, not "must have
  // createdAt" or ajv's "must be equal to constant"
  assert.is(await planShapeProblem({ formatVersion: 2 }), 'formatVersion is 2; this steward reads plans of formatVersion 1 (was it made by another version?)');
  assert.is(
    await planShapeProblem({ formatVersion: '1' }),
    'formatVersion is "1"; this steward reads plans of formatVersion 1 (was it made by another version?)',
  );
  // GIVEN a version JSON.parse reads as Infinity THEN it is not shown as null
  assert.is(
    await planShapeProblem(JSON.parse('{"formatVersion": 1e999}')),
    'formatVersion is Infinity (a number too large); this steward reads plans of formatVersion 1 (was it made by another version?)',
  );
  // GIVEN an item whose action was edited THEN the allowed values and the value found
  const p = await planShapeProblem({ formatVersion: 1, items: [{ action: 'explode' }] });
  assert.not.match(p!, 'allowed values');
});

const pathRows: Array<[string[], boolean]> = [
  [[], true],
  [['dashboards'], true],
  [['dashboards/checkout.yaml', 'alerts'], true],
  [['.'], true],
  [['..'], false],
  [['../other/secret.yaml'], false],
  [['dashboards/../../x'], false],
  [['/etc/passwd'], false],
  [['C:\\Users\\x'], false],
  [['dashboards\\..\\..\\x'], false],
];

for (const [paths, ok] of pathRows) {
  test(`checkBinding: options.paths ${JSON.stringify(paths)} ${ok ? 'pass' : 'are refused, before any look at them'}`, () => {
    // A plan whose digest was made again after its paths were changed by hand: only the path rule stops it.
    const b: PlanBinding = { ...binding, options: { ...binding.options, paths } };
    const plan = { items: [item()], binding: b, digest: planDigest([item()], b) } as unknown as Plan;
    const here = { project: b.project, file: b.file, server: b.server };
    if (ok) checkBinding(plan, here);
    else assert.throws(() => checkBinding(plan, here), /plan names a path outside its project/);
  });
}

test.run();
