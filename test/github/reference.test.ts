/**
 * docs/reference.md against schemas/*.schema.json and the code: every schema property has its row (and no
 * row names a property the schema lacks), with the schema's type, required flag and limits; the defaults
 * the page gives are the code's; and each kind's example is a valid project.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_CONCURRENCY } from '../../src/clients/http.ts';
import { CLOUD_PROFILES, OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import { resolveCloud, resolveObservability, DEFAULT_REQUESTS_PER_MINUTE } from '../../src/config/connection.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { DEFAULT_RESOURCES, defaultMarkerTag, loadProject } from '../../src/config/project.ts';
import { DEFAULT_ENDPOINT_STATUS, DEFAULT_REPORT_UNLISTED_ENDPOINTS, DEFAULT_REPORT_UNLISTED_PIPES } from '../../src/report/checks.ts';
import { ROOT } from './files.ts';

const KINDS = {
  Project: 'project',
  Dashboard: 'dashboard',
  Alert: 'alert',
  CloudService: 'cloud-service',
  Template: 'template',
  TemplateInstance: 'template-instance',
} as const;
type Kind = keyof typeof KINDS;

const doc = readFileSync(join(ROOT, 'docs/reference.md'), 'utf8');

/** The text of one `## Kind` section. */
function section(kind: Kind): string {
  const start = doc.indexOf(`\n## ${kind}\n`);
  assert.ok(start >= 0, `docs/reference.md has a "## ${kind}" section`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

interface Row {
  path: string;
  type: string;
  default: string;
  constraints: string;
  line: string;
}

function rows(kind: Kind): Row[] {
  const out: Row[] = [];
  for (const line of section(kind).split('\n')) {
    if (!/^\| `[^`]+` \|/.test(line)) continue;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    assert.is(cells.length, 5, `five cells: ${line}`);
    out.push({ path: cells[0]!.slice(1, -1), type: cells[1]!, default: cells[2]!, constraints: cells[3]!, line });
  }
  return out;
}

type Schema = Record<string, any>;
interface Property {
  path: string;
  schema: Schema;
  required: boolean;
}

/**
 * Every property of a schema, depth first in schema order, named as the page names them. `defs`: the
 * schema's own `$defs`, whose members a `$ref` brings in (an Alert's channel, written once for `channel` and
 * `channels[]`); without it a `$ref` is documented by reference (the dashboard's tile config, HyperDX's own
 * schema taken by scripts/tile-config.ts).
 */
function properties(schema: Schema, path = '', out: Property[] = [], defs?: Record<string, Schema>): Property[] {
  const deref = (s: Schema): Schema => {
    const ref = typeof s['$ref'] === 'string' ? /^#\/\$defs\/(.+)$/.exec(s['$ref']) : null;
    return ref && defs?.[ref[1]!] ? { ...defs[ref[1]!], ...s } : s;
  };
  for (const [k, raw] of Object.entries((schema['properties'] ?? {}) as Record<string, Schema>)) {
    const p = deref(raw);
    if (p['items']) p['items'] = deref(p['items']);
    const full = path ? `${path}.${k}` : k;
    out.push({ path: full, schema: p, required: ((schema['required'] ?? []) as string[]).includes(k) });
    if (p['properties']) properties(p, full, out, defs);
    if (p['additionalProperties'] && typeof p['additionalProperties'] === 'object') {
      out.push({ path: `${full}.<name>`, schema: p['additionalProperties'], required: false });
      properties(p['additionalProperties'], `${full}.<name>`, out, defs);
    }
    if (p['items']?.['properties']) properties(p['items'], `${full}[]`, out, defs);
  }
  return out;
}

const schemaOf = (kind: Kind): Schema => JSON.parse(readFileSync(join(ROOT, 'schemas', `${KINDS[kind]}.schema.json`), 'utf8'));
/** The kind's properties; an Alert's `$defs` are steward's and get rows, a Dashboard's are HyperDX's (see `properties`). */
const propertiesOf = (kind: Kind): Property[] => {
  const s = schemaOf(kind);
  return properties(s, '', [], kind === 'Dashboard' ? undefined : s['$defs']);
};

for (const kind of Object.keys(KINDS) as Kind[]) {
  test(`${kind}: one row per schema property, in schema order, none extra`, () => {
    assert.equal(
      rows(kind).map((r) => r.path),
      propertiesOf(kind).map((p) => p.path),
    );
  });

  test(`${kind}: each row has the schema's type, required flag and limits`, () => {
    const byPath = new Map(rows(kind).map((r) => [r.path, r]));
    for (const p of propertiesOf(kind)) {
      const r = byPath.get(p.path)!;
      const s = p.schema;
      const where = `${kind} ${p.path}: ${r.line}`;
      // type
      if ('const' in s) assert.is(r.type, `\`${JSON.stringify(s['const'])}\``, where);
      else if (s['enum']) assert.is(r.type, 'string', where);
      else if (s['type'] === 'array')
        assert.is(
          r.type,
          `list of ${
            s['items']['type'] === 'object' || s['items']['$ref']
              ? 'objects'
              : [s['items']['type']]
                  .flat()
                  .map((t: string) => `${t}s`)
                  .join(' or ')
          }`,
          where,
        );
      else if (s['additionalProperties'] && typeof s['additionalProperties'] === 'object')
        assert.is(r.type, `map: name → ${[s['additionalProperties']['type'] ?? 'object'].flat().join(' or ')}`, where);
      else assert.is(r.type, [s['type'] ?? 'object'].flat().join(' or '), where);
      // required
      if (p.required) assert.is(r.default, '**required**', where);
      else assert.not.match(r.default, '**required**', where);
      // limits
      const c = r.constraints;
      for (const v of s['enum'] ?? []) assert.match(c, `\`${v}\``, where);
      if (s['enum']) assert.match(c, 'one of ', where);
      else assert.not.match(c, 'one of ', where);
      if (s['minimum'] !== undefined) assert.match(c, `≥ ${s['minimum']}`, where);
      if (s['maximum'] !== undefined) assert.match(c, `≤ ${s['maximum']}`, where);
      if (s['exclusiveMinimum'] !== undefined) assert.match(c, `> ${s['exclusiveMinimum']}`, where);
      if (s['minLength'] === 1) assert.match(c, 'not empty', where);
      if (s['maxLength'] !== undefined) assert.match(c, `length ≤ ${s['maxLength']}`, where);
      if (s['pattern']) assert.match(c, `matches \`${s['pattern']}\``, where);
      if (s['format']) assert.match(c, `format ${s['format']}`, where);
      if (s['minItems'] !== undefined) assert.match(c, `at least ${s['minItems']} item`, where);
      if (s['uniqueItems']) assert.match(c, 'no duplicates', where);
      if (s['items']?.['minLength'] === 1) assert.match(c, 'items not empty', where);
      if (s['propertyNames']?.['pattern']) assert.match(c, `names match \`${s['propertyNames']['pattern']}\``, where);
      // No limit the schema does not have.
      if (/[≥≤>]/.test(c))
        assert.ok(
          ['minimum', 'maximum', 'exclusiveMinimum', 'maxLength'].some((k) => s[k] !== undefined),
          where,
        );
      if (c.includes('matches')) assert.ok(s['pattern'] || s['propertyNames'], where);
    }
  });
}

test("the defaults on the page are the code's", () => {
  const d = (kind: Kind, path: string) => rows(kind).find((r) => r.path === path)!.default;
  assert.is(d('Project', 'spec.resources'), DEFAULT_RESOURCES.map((g) => `\`${g}\``).join(', '));
  assert.is(d('Project', 'spec.observability.markerTag'), `\`${defaultMarkerTag('<metadata.name>')}\``);
  assert.is(
    d('Project', 'spec.observability.requestsPerMinute'),
    `\`${DEFAULT_REQUESTS_PER_MINUTE}\` (\`${OBSERVABILITY_PROFILES['clickstack-cloud'].requestsPerMinute}\` with \`clickstack-cloud\`)`,
  );
  assert.is(
    d('Project', 'spec.cloud.requestsPerMinute'),
    `\`${DEFAULT_REQUESTS_PER_MINUTE}\` (\`${CLOUD_PROFILES['clickhouse-cloud'].requestsPerMinute}\` with \`clickhouse-cloud\`)`,
  );
  assert.is(d('Project', 'spec.concurrency'), `\`${DEFAULT_CONCURRENCY}\``);
  assert.is(d('CloudService', 'spec.pipes.reportUnlisted'), `\`${DEFAULT_REPORT_UNLISTED_PIPES}\``);
  assert.is(d('CloudService', 'spec.reversePrivateEndpoints.reportUnlisted'), `\`${DEFAULT_REPORT_UNLISTED_ENDPOINTS}\``);
  assert.is(d('CloudService', 'spec.reversePrivateEndpoints.expected[].status'), `\`${DEFAULT_ENDPOINT_STATUS}\``);

  // What a project that sets nothing resolves to: state, journal, timeouts.
  const dir = mkdtempSync(join(tmpdir(), 'steward-ref-'));
  try {
    const file = join(dir, 'steward.yaml');
    writeFileSync(
      file,
      'apiVersion: steward/v1\nkind: Project\nspec:\n  observability: { url: "https://o", token: { env: T } }\n  cloud: { url: "https://c", keyId: { env: I }, keySecret: { env: S } }\n',
    );
    const project = loadProject(nodeFileSystem, file, {});
    assert.is(`\`${project.statePath.slice(dir.length + 1)}\``, d('Project', 'spec.state'));
    assert.is(`\`${project.journalPath.slice(dir.length + 1)}\``, d('Project', 'spec.journal'));
    const env = { T: 't', I: 'i', S: 's' };
    assert.is(`\`${resolveObservability(project, env).timeoutMs / 1000}\``, d('Project', 'spec.observability.timeoutSeconds'));
    assert.is(`\`${resolveCloud(project, env).timeoutMs / 1000}\``, d('Project', 'spec.cloud.timeoutSeconds'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the four examples together are a valid project: schemas, references, no warnings', async () => {
  const example = (kind: Kind) => {
    const m = /```yaml\n([\s\S]*?)```/.exec(section(kind));
    assert.ok(m, `${kind} has a yaml example`);
    const text = m![1]!;
    assert.match(text, new RegExp(`^# yaml-language-server: \\$schema=\\S*${KINDS[kind]}\\.schema\\.json\\n`));
    assert.match(text, `\nkind: ${kind}\n`);
    return text;
  };
  const dir = mkdtempSync(join(tmpdir(), 'steward-ref-'));
  try {
    const files: Record<string, string> = {
      'steward.yaml': example('Project'),
      'dashboards/checkout-overview.yaml': example('Dashboard'),
      'alerts/checkout.yaml': example('Alert'),
      'cloud/prod-warehouse.yaml': example('CloudService'),
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: dir }, {});
    assert.equal(loaded.issues, []);
    assert.equal(loaded.resources.map((r) => `${r.kind}/${r.name}`).sort(), [
      'Alert/checkout-errors',
      'CloudService/prod-warehouse',
      'Dashboard/checkout-overview',
    ]);
    const staging = loadProject(nodeFileSystem, join(dir, 'steward.yaml'), {}, 'staging');
    assert.match(staging.statePath, /\.steward\/state\.staging\.json$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the Template and TemplateInstance examples, with the Project and Dashboard ones, stamp three dashboards and alerts without a problem', async () => {
  const example = (kind: Kind) => /```yaml\n([\s\S]*?)```/.exec(section(kind))![1]!;
  const dir = mkdtempSync(join(tmpdir(), 'steward-ref-'));
  try {
    const files: Record<string, string> = {
      'steward.yaml': example('Project'),
      'dashboards/checkout-overview.yaml': example('Dashboard'),
      'dashboards/jvm-runtime.yaml': example('Template'),
      'dashboards/jvm-services.yaml': example('TemplateInstance'),
    };
    for (const [name, text] of Object.entries(files)) {
      assert.match(text, new RegExp(`^# yaml-language-server: \\$schema=\\S*schemas/\\S+\\.schema\\.json\\n`));
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: dir }, {});
    // Only dashboards/ has files here; the Project example's other globs match nothing (a warning).
    assert.equal(
      loaded.issues.filter((i) => !i.message.includes('matches no file')),
      [],
    );
    assert.equal(loaded.resources.map((r) => `${r.kind}/${r.name}`).sort(), [
      'Alert/jvm-runtime/checkout',
      'Alert/jvm-runtime/inventory',
      'Alert/jvm-runtime/payments',
      'Dashboard/checkout-overview',
      'Dashboard/jvm-runtime/checkout',
      'Dashboard/jvm-runtime/inventory',
      'Dashboard/jvm-runtime/payments',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
