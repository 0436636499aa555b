/**
 * Fuzzing whole projects through `loadWorkspace` (files, project file, semantic checks) on an in-memory
 * file system, and valid projects through `computePlan` against random live dashboards and alert records.
 *
 *   FUZZ_RUNS=20000 node --import tsx test/fuzz/workspace.test.ts   the soak run
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { CliError, ConfigError, ValidationError, type Issue } from '../../src/errors.ts';
import { computePlan } from '../../src/plan/plan.ts';
import type { AlertBody } from '../../src/model/alert.ts';
import { KNOWN_AFTER_APPLY, type LiveDashboardInput, type Plan, type StateFile } from '../../src/plan/types.ts';
import { renderIssuesText } from '../../src/render/issues.ts';
import { renderPlanGithub } from '../../src/render/plan-github.ts';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.ts';
import { renderPlanText } from '../../src/render/plan-text.ts';
import { hexId, liveDashboards, budget, projectDoc, renderDocs, renderStyle, text, workspace, type Workspace } from './arbitraries.ts';
import { assertIssuesWellFormed, mutateText, mutateValue, textMutation, valueMutation } from './mutate.ts';

/** Cases per property in `npm test`; FUZZ_RUNS=N spreads N over them in these proportions. */
const runs = budget({ valid: 20, semantic: 30, mutated: 35, plan: 40, converge: 25 });

const ROOT = '/repo';
const MARKER = 'managed-by:steward';
const NOW = new Date('2026-11-21T12:00:00.000Z');
const PROJECT = 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["dashboards/**/*.yaml", "alerts/**/*.yaml", "cloud/**/*.yaml"]\n';

/** An in-memory file system holding `files` (paths relative to /repo). */
function memoryFs(files: Map<string, Buffer>): FileSystem {
  const abs = new Map([...files].map(([k, v]) => [`${ROOT}/${k}`, v]));
  return {
    readFile: (p) => {
      const b = abs.get(p);
      if (!b) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return b;
    },
    stat: (p) =>
      abs.has(p)
        ? { isFile: true, isDirectory: false, size: abs.get(p)!.length }
        : [...abs.keys()].some((k) => k.startsWith(p + '/'))
          ? { isFile: false, isDirectory: true, size: 0 }
          : undefined,
    glob: async (patterns, cwd) => {
      const match = picomatch(patterns, { dot: false });
      return [...abs.keys()].filter((k) => k.startsWith(cwd + '/') && match(k.slice(cwd.length + 1))).sort();
    },
  };
}

/** The files of a workspace: one document per file, or several dashboards in one. */
function filesOf(w: Workspace, style: Parameters<typeof renderDocs>[1], together: boolean): Map<string, Buffer> {
  const files = new Map<string, Buffer>([['steward.yaml', Buffer.from(PROJECT)]]);
  if (together && w.dashboards.length > 0) files.set('dashboards/all.yaml', Buffer.from(renderDocs(w.dashboards, style)));
  else w.dashboards.forEach((d, i) => files.set(`dashboards/d${i}.yaml`, Buffer.from(renderDocs([d], style))));
  w.alerts.forEach((a, i) => files.set(`alerts/a${i}.yaml`, Buffer.from(renderDocs([a], style))));
  w.services.forEach((s, i) => files.set(`cloud/s${i}.yaml`, Buffer.from(renderDocs([s], style))));
  return files;
}

async function load(files: Map<string, Buffer>) {
  return loadWorkspace({ fs: memoryFs(files), env: {}, cwd: ROOT }, { requireProject: true });
}

/** Loads; a thrown error must be a CliError, and its issues (if any) well-formed. Returns the issues. */
async function loadChecked(files: Map<string, Buffer>, context: () => string): Promise<{ issues: Issue[]; resources: number } | undefined> {
  let loaded;
  try {
    loaded = await load(files);
  } catch (e) {
    assert.ok(e instanceof CliError, `not a CliError: ${(e as Error)?.stack}\n${context()}`);
    if (e instanceof ValidationError)
      assertIssuesWellFormed(
        e.issues.map((i) => ({ ...i, file: i.file.replace(ROOT + '/', '') })),
        files,
        context,
      );
    if (e instanceof ConfigError && e.pos) {
      const rel = e.pos.file.replace(ROOT + '/', '');
      assertIssuesWellFormed([{ ...e.pos, file: rel, pointer: e.pointer, message: e.message, severity: 'error' }], files, context);
    }
    return undefined;
  }
  assertIssuesWellFormed(loaded.issues, files, context);
  const text = renderIssuesText(loaded.issues, { color: false });
  assert.is(text === '' ? 0 : text.split('\n').length, loaded.issues.length, `not one line per problem:\n${text.slice(0, 2000)}`);
  return { issues: loaded.issues, resources: loaded.resources.length };
}

const unfolded = fc.record({ ...renderStyleParts(), lineWidth: fc.constant(0) });
function renderStyleParts() {
  return { flowLevel: fc.constantFrom(-1, -1, 2), schemaComment: fc.boolean(), explicitStart: fc.boolean(), crlf: fc.boolean(), bom: fc.boolean() };
}

test('a valid project loads with no problem at all, every resource kept', async () => {
  await fc.assert(
    fc.asyncProperty(workspace, unfolded, fc.boolean(), async (w, style, together) => {
      const loaded = await load(filesOf(w, style, together));
      assert.equal(loaded.issues, []);
      assert.is(loaded.resources.length, w.dashboards.length + w.alerts.length + w.services.length);
    }),
    runs.valid,
  );
});

/** Cross-file mistakes only the semantic checks see. */
type SemanticMutation =
  | 'dup-name'
  | 'dup-spec-name'
  | 'dup-tile'
  | 'bad-ref-dashboard'
  | 'bad-ref-tile'
  | 'dup-alert-id'
  | 'wide-tile'
  | 'search-with-tile'
  | 'dup-pipe'
  | 'dup-service';

function breakSemantics(w: Workspace, m: SemanticMutation): Workspace {
  const c = structuredClone(w);
  const d0 = c.dashboards[0];
  const a0 = c.alerts[0];
  switch (m) {
    case 'dup-name':
      if (d0) c.dashboards.push({ ...structuredClone(d0), spec: { ...d0.spec, name: `${d0.spec.name} copy` } });
      break;
    case 'dup-spec-name':
      if (d0) c.dashboards.push({ ...structuredClone(d0), metadata: { name: `${d0.metadata.name}-copy` } });
      break;
    case 'dup-tile':
      if (d0?.spec.tiles?.[0]) d0.spec.tiles.push(structuredClone(d0.spec.tiles[0]));
      break;
    case 'bad-ref-dashboard':
      if (a0) a0.spec = { ...a0.spec, source: 'tile', tile: { dashboard: 'no-such-dashboard', name: 'x' } };
      break;
    case 'bad-ref-tile':
      if (a0 && d0) a0.spec = { ...a0.spec, source: 'tile', tile: { dashboard: d0.metadata.name, name: '\u0000no such tile' } };
      break;
    case 'dup-alert-id':
      if (a0) c.alerts.push({ ...structuredClone(a0), metadata: { ...a0.metadata, name: `${a0.metadata.name}-copy` } });
      break;
    case 'wide-tile':
      if (d0?.spec.tiles?.[0]) Object.assign(d0.spec.tiles[0], { x: 20, w: 10 });
      break;
    case 'search-with-tile':
      if (a0) a0.spec = { ...a0.spec, source: 'search', tile: { dashboard: 'x', name: 'y' } };
      break;
    case 'dup-pipe': {
      const s = c.services[0];
      if (s) s.spec.pipes = { expected: [{ name: 'p' }, { name: 'p' }] };
      break;
    }
    case 'dup-service':
      if (c.services[0]) c.services.push({ ...structuredClone(c.services[0]), metadata: { name: `${c.services[0].metadata.name}-copy` } });
      break;
  }
  return c;
}

const semanticMutation = fc.constantFrom<SemanticMutation>(
  'dup-name',
  'dup-spec-name',
  'dup-tile',
  'bad-ref-dashboard',
  'bad-ref-tile',
  'dup-alert-id',
  'wide-tile',
  'search-with-tile',
  'dup-pipe',
  'dup-service',
);

test('cross-file mistakes (duplicates, unknown references, wide tiles) are found and located in their files', async () => {
  await fc.assert(
    fc.asyncProperty(workspace, fc.array(semanticMutation, { minLength: 1, maxLength: 3 }), renderStyle, fc.boolean(), async (w, ms, style, together) => {
      let broken = w;
      for (const m of ms) broken = breakSemantics(broken, m);
      const files = filesOf(broken, style, together);
      const r = await loadChecked(files, () => JSON.stringify(ms));
      assert.ok(r, 'a valid project file never throws');
      // A change that had something to act on must be reported.
      if (JSON.stringify(broken) !== JSON.stringify(w)) assert.ok(r.issues.length > 0, `no problem reported for ${JSON.stringify(ms)}`);
    }),
    runs.semantic,
  );
});

test('mutated files and project files: loading never throws anything but a CliError, every problem located', async () => {
  await fc.assert(
    fc.asyncProperty(
      workspace,
      renderStyle,
      fc.array(fc.tuple(fc.nat(), fc.array(valueMutation, { maxLength: 2 }), fc.array(textMutation, { maxLength: 2 })), { minLength: 1, maxLength: 3 }),
      fc.option(fc.tuple(projectDoc, fc.array(valueMutation, { maxLength: 2 }), fc.array(textMutation, { maxLength: 2 })), { freq: 3 }),
      async (w, style, fileMuts, projectMut) => {
        const files = filesOf(w, style, false);
        const names = [...files.keys()].filter((k) => k !== 'steward.yaml');
        for (const [pick, vm, tm] of fileMuts) {
          if (names.length === 0) break;
          const name = names[pick % names.length]!;
          try {
            const { parse } = await import('yaml');
            const value = parse(
              files
                .get(name)!
                .toString('utf8')
                .replace(/^\ufeff/, ''),
            );
            files.set(name, mutateText(renderDocs([mutateValue(value, vm)], style), tm));
          } catch {
            files.set(name, mutateText(files.get(name)!.toString('utf8'), tm));
          }
        }
        if (projectMut) {
          const [doc, vm, tm] = projectMut;
          // Keep the globs pointing at the files, so the resources are still read.
          const d = { ...doc, spec: { ...doc.spec, resources: ['dashboards/**/*.yaml', 'alerts/**/*.yaml', 'cloud/**/*.yaml'] } };
          try {
            files.set('steward.yaml', mutateText(renderDocs([mutateValue(d, vm)], style), tm));
          } catch {
            /* a value stringify refuses: keep the plain project file */
          }
        }
        await loadChecked(files, () => [...files].map(([k, v]) => `--- ${k}\n${JSON.stringify(v.toString('utf8').slice(0, 600))}`).join('\n'));
      },
    ),
    runs.mutated,
  );
});

// ---- plan -------------------------------------------------------------------------------------------

/** Alert records: none, some, or records that differ from what the files say. */
function stateFor(w: Workspace): fc.Arbitrary<StateFile> {
  const record = fc.record({
    sent: fc.record({
      name: text({ minLength: 1 }),
      threshold: fc.integer(),
      thresholdType: fc.constantFrom('above', 'below'),
      interval: fc.constant('5m'),
      source: fc.constantFrom('tile', 'search'),
      channel: fc.record({ type: fc.constant('webhook'), webhookId: hexId }),
    }),
    appliedAt: fc.constant('2026-11-20T10:00:00.000Z'),
  });
  const ids = [...w.alerts.map((a) => a.metadata.id), '65f5e4a3b9e77c001a999999'];
  return fc
    .dictionary(fc.constantFrom(...ids), record as fc.Arbitrary<StateFile['alerts'][string]>, { maxKeys: ids.length, noNullPrototype: true })
    .map((alerts) => ({ formatVersion: 1 as const, alerts }));
}

const planInput = workspace.chain((w) =>
  fc.record({
    w: fc.constant(w),
    files: fc.constant(filesOf(w, { lineWidth: 0 }, false)),
    live: liveDashboards(w, MARKER).map((l) => [...new Map(l.map((d) => [d.id, d])).values()]),
    state: stateFor(w),
    reassertAlerts: fc.boolean(),
    pin: fc.nat(),
  }),
);

async function resourcesOf(files: Map<string, Buffer>) {
  const loaded = await load(files);
  assert.equal(loaded.issues, []);
  return loaded.resources;
}

function plan(resources: Awaited<ReturnType<typeof resourcesOf>>, live: LiveDashboardInput[], state: StateFile, reassertAlerts = false): Plan {
  return computePlan({ resources, live, state, markerTag: MARKER, now: NOW, projectDir: ROOT, reassertAlerts });
}

test('plan against random live dashboards: never throws, one item per resource, counts add up, renders, same plan whatever the live order', async () => {
  await fc.assert(
    fc.asyncProperty(planInput, fc.nat(), async ({ w, files, live, state, reassertAlerts }, seed) => {
      const resources = await resourcesOf(files);
      const p = plan(resources, live, state, reassertAlerts);
      JSON.parse(JSON.stringify(p));
      for (const d of w.dashboards) assert.is(p.items.filter((i) => i.kind === 'Dashboard' && i.name === d.metadata.name).length, 1);
      for (const a of w.alerts) assert.is(p.items.filter((i) => i.kind === 'Alert' && i.name === a.metadata.name).length, 1);
      const counted = p.summary.create + p.summary.update + p.summary.noop + p.summary.blocked;
      assert.is(counted, p.items.length);
      for (const it of p.items) {
        assert.ok(it.message.length > 0);
        if (it.action === 'blocked') assert.ok(it.reason && it.wayOut && it.wayOut.length > 0, JSON.stringify(it));
        if (it.action === 'create') assert.ok(it.body, 'a create carries its body');
      }
      renderPlanText(p, { color: false, columns: 80, showUnchanged: true });
      renderPlanMarkdown(p, {});
      const gh = renderPlanGithub(p);
      assert.is(gh.trimEnd().split('\n').length, p.items.filter((i) => i.action !== 'noop').length + 1, 'one annotation line per item');
      // The order of the live list does not matter.
      const shuffled = [...live].sort((a, b) => ((a.id.charCodeAt(seed % 24) ^ seed) & 7) - ((b.id.charCodeAt(seed % 24) ^ seed) & 7)).reverse();
      // (compared as JSON: tile names such as "constructor" are keys, which confuse a deep-equal)
      assert.is(JSON.stringify(plan(resources, shuffled, state, reassertAlerts)), JSON.stringify(p));
    }),
    runs.plan,
  );
});

test('plan → apply (simulated: creates get ids, alerts get records) → plan again: nothing to create or update', async () => {
  await fc.assert(
    fc.asyncProperty(planInput, async ({ files, live, state }) => {
      const resources = await resourcesOf(files);
      const first = plan(resources, live, state);
      // The service: each create becomes a live dashboard with ids on it and its tiles.
      const after = [...live];
      const created = new Map<string, LiveDashboardInput>();
      let n = 0;
      for (const it of first.items) {
        if (it.kind !== 'Dashboard' || it.action !== 'create') continue;
        const body = structuredClone(it.body) as unknown as { name: string; tags: string[]; tiles: Array<Record<string, unknown>> };
        const id = `ffffffffffffffff${String(++n).padStart(8, '0')}`;
        const d = {
          id,
          name: body.name,
          tags: body.tags,
          tiles: body.tiles.map((t, i) => ({ ...t, id: `${id.slice(0, 20)}${String(i).padStart(4, '0')}` })),
        } as LiveDashboardInput;
        after.push(d);
        created.set(it.name, d);
      }
      const records: StateFile = { formatVersion: 1, alerts: { ...state.alerts } };
      for (const it of first.items) {
        if (it.kind !== 'Alert' || it.action !== 'update') continue;
        const body = structuredClone(it.body) as AlertBody;
        if (it.reference && body.dashboardId === KNOWN_AFTER_APPLY) {
          const d = created.get(it.reference.dashboard)!;
          body.dashboardId = d.id;
          body.tileId = d.tiles!.find((t) => t.name === it.reference!.tile)!.id!;
        }
        records.alerts[it.id!] = { sent: body, appliedAt: NOW.toISOString() };
      }
      const second = plan(resources, after, records);
      assert.is(second.summary.create, 0, JSON.stringify(second.items.filter((i) => i.action === 'create')));
      assert.is(second.summary.update, 0, JSON.stringify(second.items.filter((i) => i.action === 'update')));
      // What was created is now unchanged, and nothing else moved.
      for (const name of created.keys()) assert.is(second.items.find((i) => i.kind === 'Dashboard' && i.name === name)?.action, 'noop');
      assert.is(second.summary.blocked, first.summary.blocked);
    }),
    runs.converge,
  );
});

test.run();
