/**
 * A hostile (or broken) server: names, ids, tags and tile names holding terminal escapes, line breaks,
 * Unicode line separators, Markdown links, mentions and HTML reach every output escaped for it; ids that
 * would inject into an imported file are refused; answers nested deeper than the limit are one-line API
 * response errors (issue 13, docs/security.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type TestServer } from '../clients/helpers.ts';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { cpSync, writeFileSync } from 'node:fs';
import {
  escapeGithubMessage,
  escapeGithubProperty,
  escapeHtml,
  escapeMarkdown,
  escapeMarkdownCode,
  escapeMarkdownHtml,
  escapeMarkdownKeepingCode,
  escapeTerminal,
  jsonText,
} from '../../src/render/escape.ts';

const MARKER = 'managed-by:steward';
const ESC = '\u001b';
/** What a hostile name carries: screen clear, title set, a hidden link, a forged plan line, Markdown. */
const EVIL = `${ESC}[2J${ESC}[H${ESC}]0;owned\u0007 \u009b31mred\u202egnp.exe ${ESC}]8;;https://evil.example/${ESC}\\link${ESC}]8;;${ESC}\\\r\n  + create  dashboard pwned\u2028@everyone [click](https://evil.example/x) <img src=x onerror=alert(1)> **bold** | cell`;
const EVIL_ID = `65f5e4a3b9e77c001a999999\n# injected\n---\napiVersion: steward/v1\nkind: Alert\nmetadata: { name: pwned }`;

function hostileDashboards(): unknown[] {
  return [
    {
      id: '65f5e4a3b9e77c001a555551',
      name: `orphan ${EVIL}`,
      tags: [MARKER, `tag ${EVIL}`],
      tiles: [{ id: 't1', name: `tile ${EVIL}`, x: 0, y: 0, w: 6, h: 3, series: [] }],
    },
    { id: EVIL_ID, name: 'orphan with a hostile id', tags: [MARKER], tiles: [] },
    // Same name as examples/dashboards/api-latency.yaml: compared, so its tile names reach the diff lines.
    {
      id: '65f5e4a3b9e77c001a555553',
      name: 'Public API latency',
      tags: [MARKER, 'team:api'],
      tiles: [{ id: 't2', name: `Request latency${EVIL}`, x: 0, y: 0, w: 12, h: 4, series: [] }],
    },
  ];
}

async function hostileServer(list: () => unknown, extra?: (method: string, url: string) => { status: number; body: string } | undefined): Promise<TestServer> {
  return startServer((_req, res, rec) => {
    const custom = extra?.(rec.method, rec.url);
    if (custom) {
      res.writeHead(custom.status, { 'content-type': 'application/json' });
      res.end(custom.body);
      return;
    }
    if (rec.method === 'GET' && rec.url.startsWith('/api/v2/dashboards')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const l = list();
      res.end(typeof l === 'string' ? l : JSON.stringify({ data: l }));
      return;
    }
    if (rec.method === 'POST' && rec.url.startsWith('/api/v2/dashboards')) {
      const body = JSON.parse(rec.body) as Record<string, unknown>;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { ...body, id: `${ESC}[2J\n  + created dashboard pwned ${EVIL}`, tiles: [] } }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: `no route ${EVIL}` }));
  });
}

function project(url: string): { dir: string; env: Record<string, string>; cleanup: () => void } {
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replaceAll('requestsPerMinute: 100', 'requestsPerMinute: 6000\n    timeoutSeconds: 2'));
  return {
    dir: p.dir,
    env: {
      STEWARD_OBS_URL: url,
      STEWARD_CLOUD_URL: url,
      STEWARD_OBS_TOKEN: 'tok-'.repeat(6),
      STEWARD_CLOUD_KEY_ID: 'kid-'.repeat(4),
      STEWARD_CLOUD_KEY_SECRET: 'sec-'.repeat(6),
      XDG_CACHE_HOME: join(p.dir, '.xdg'),
    },
    cleanup: p.cleanup,
  };
}

/** Nothing a terminal acts on: no control character but newline, no line or paragraph separator. */
function assertInert(text: string, what: string): void {
  const bad = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.exec(text);
  assert.not.ok(bad, `${what}: raw U+${bad?.[0].charCodeAt(0).toString(16).padStart(4, '0')} in:\n${text.slice(0, 1500)}`);
  assert.not.match(text, /^\s*\+ create\s+dashboard pwned/m, `${what}: a forged plan line`);
  assert.not.match(text, /^\s*\+ created dashboard pwned/m, `${what}: a forged apply line`);
}

// --- each escaping function, table-driven -----------------------------------------------------------------

const HOSTILE_STRINGS = [EVIL, EVIL_ID, '%0A::error::forged', 'a\u2029b\u202ec', '`code` ``` fence', '@here #1 www.evil.example'];

for (const s of HOSTILE_STRINGS) {
  test(`escape ${JSON.stringify(s.slice(0, 24))}…: every output kind is inert`, () => {
    const term = escapeTerminal(s);
    assert.not.match(term, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    for (const gh of [escapeGithubMessage(s), escapeGithubProperty(s)]) {
      assert.not.match(gh, /[\r\n\u001b\u2028]/);
      assert.not.match(gh, /%0A::/i.test(s) ? /^::/ : /(?!)/);
    }
    assert.not.match(escapeGithubProperty(s), /[:,]/);
    const md = escapeMarkdown(s);
    assert.not.match(md, /[\n\r<>]/);
    assert.not.match(md, /@(everyone|here)/);
    assert.not.match(md, /(?<!\\)\[click(?<!\\)\]/);
    assert.not.match(md, /https:\/\//);
    assert.not.match(escapeMarkdownCode(s), /[`|\n]/);
    assert.not.match(escapeMarkdownHtml(s), /[<>\n]|@everyone|https:\/\//);
    assert.not.match(escapeHtml(s), /[<>"']/);
    assert.not.match(escapeHtml(s), /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
  });
}

/** Characters that show nothing: a name holding them prints exactly like another name, or hides a text. */
const INVISIBLE: Array<{ name: string; char: string; shown: string }> = [
  { name: 'zero-width space', char: '\u200b', shown: '\\u200b' },
  { name: 'word joiner', char: '\u2060', shown: '\\u2060' },
  { name: 'invisible separator', char: '\u2063', shown: '\\u2063' },
  { name: 'byte-order mark', char: '\ufeff', shown: '\\ufeff' },
  { name: 'soft hyphen', char: '\u00ad', shown: '\\u00ad' },
  { name: 'Mongolian vowel separator', char: '\u180e', shown: '\\u180e' },
  { name: 'Hangul filler', char: '\u3164', shown: '\\u3164' },
  { name: 'tag letter i (a hidden text)', char: String.fromCodePoint(0xe0069), shown: '\\u{e0069}' },
  // Red team, round 11: these show nothing either, and the variation selectors carry a byte each (a hidden text).
  { name: 'variation selector-17 (a hidden text)', char: String.fromCodePoint(0xe0100), shown: '\\u{e0100}' },
  { name: 'variation selector-256 (a hidden text)', char: String.fromCodePoint(0xe01ef), shown: '\\u{e01ef}' },
  { name: 'variation selector-1', char: '\ufe00', shown: '\\ufe00' },
  { name: 'combining grapheme joiner', char: '\u034f', shown: '\\u034f' },
  { name: 'inhibit symmetric swapping', char: '\u206a', shown: '\\u206a' },
  { name: 'nominal digit shapes', char: '\u206f', shown: '\\u206f' },
  { name: 'interlinear annotation anchor', char: '\ufff9', shown: '\\ufff9' },
  { name: 'Khmer vowel inherent aq', char: '\u17b4', shown: '\\u17b4' },
  { name: 'Mongolian free variation selector', char: '\u180b', shown: '\\u180b' },
  { name: 'musical symbol begin beam', char: String.fromCodePoint(0x1d173), shown: '\\u{1d173}' },
  { name: 'shorthand format letter overlap', char: String.fromCodePoint(0x1bca0), shown: '\\u{1bca0}' },
];
for (const c of INVISIBLE) {
  test(`escape an invisible ${c.name}: shown, in every output kind`, () => {
    const name = `Checkout overview${c.char}`;
    assert.is(escapeTerminal(name), `Checkout overview${c.shown}`);
    for (const out of [escapeGithubMessage(name), escapeGithubProperty(name), escapeMarkdown(name), escapeMarkdownCode(name), escapeMarkdownHtml(name)]) {
      assert.not.ok(out.includes(c.char), `${JSON.stringify(out)} still holds it`);
    }
  });
}

test('an emoji keeps its presentation selector; a run of them (a hidden text, a bit each) is shown', () => {
  assert.is(escapeTerminal('\u2764\ufe0f \u263a\ufe0e'), '\u2764\ufe0f \u263a\ufe0e');
  assert.is(escapeTerminal('ok\ufe0f\ufe0e\ufe0f'), 'ok\ufe0f\\ufe0e\\ufe0f');
  assert.is(jsonText('ok\ufe0f\ufe0e'), '"ok\ufe0f\\ufe0e"');
  for (const out of [escapeHtml('ok\ufe0f\ufe0e'), escapeMarkdown('ok\ufe0f\ufe0e'), escapeGithubMessage('ok\ufe0f\ufe0e')]) {
    assert.ok(out.endsWith('ufe0e') && !out.includes('\ufe0e'), out);
  }
  assert.is(JSON.parse(jsonText('ok\ufe0f\ufe0e')), 'ok\ufe0f\ufe0e');
  assert.is(jsonText(`x${String.fromCodePoint(0xe0100)}`), '"x\\udb40\\udd00"');
});

test('the joiners scripts and emoji need are left as they are', () => {
  for (const s of ['\u{1F468}\u200d\u{1F469}', 'می\u200cخواهم']) assert.is(escapeTerminal(s), s);
});

/** Markdown with steward's code spans around commands and a hostile name inside the sentence. */
const KEEPING_CODE: Array<{ name: string; text: string; spans: string[] }> = [
  { name: 'plain commands are kept as code', text: 'run `steward import --id 65f5` to write <its> file', spans: ['`steward import --id 65f5`'] },
  { name: 'a name with a double backtick', text: 'dashboard "``x" differs: run `steward import` then <img src=x> [click](https://evil.example)', spans: [] },
  { name: 'a name with an escaped backtick', text: 'dashboard "\\`" @everyone run `steward apply` <b>', spans: [] },
  { name: 'an odd number of backticks', text: 'dashboard "`" <img src=x> run `steward apply`', spans: [] },
];

for (const c of KEEPING_CODE) {
  test(`escapeMarkdownKeepingCode: ${c.name}`, () => {
    const out = escapeMarkdownKeepingCode(c.text);
    const kept = out.match(/(?<!\\)`[^`]+(?<!\\)`/g) ?? [];
    assert.equal(kept, c.spans, out);
    // Outside the kept spans nothing is live: no raw HTML, no link syntax, no mention, no unescaped backtick.
    let rest = out;
    for (const k of kept) rest = rest.replace(k, '');
    assert.not.match(rest, /[<>]|(?<!\\)\[|@everyone|https:\/\/|(?<!\\)`/, rest);
  });
}

// --- through every command ---------------------------------------------------------------------------------

test('hostile names, tags, tile names and ids: plan in every format, apply, import are inert', async () => {
  const server = await hostileServer(hostileDashboards);
  const p = project(server.url);
  try {
    const run = (args: string[]) => steward(args, { cwd: p.dir, env: p.env });
    const text = await run(['plan']);
    assert.is(text.code, 0, text.stderr);
    assertInert(text.stdout + text.stderr, 'plan');
    assert.match(text.stdout, /orphan \\e\[2J/, 'the hostile name is shown, escaped');

    const md = await run(['plan', '--format', 'markdown']);
    assert.is(md.code, 0, md.stderr);
    assertInert(md.stdout, 'plan --format markdown');
    // Fenced code blocks show text literally (no links, mentions or HTML there); they must only stay closed.
    const fences = md.stdout.match(/^```.*$/gm) ?? [];
    assert.ok(fences.length % 2 === 0 && fences.every((f, i) => (i % 2 === 0 ? f === '```diff' : f === '```')), fences.join(' '));
    const prose = md.stdout.replace(/^```diff\n[\s\S]*?^```$/gm, '');
    assert.not.match(prose, /@everyone/);
    assert.not.match(prose, /<img/);
    assert.not.match(prose, /https:\/\/evil/);
    assert.not.match(prose, /(?<!\\)\[click(?<!\\)\]\(/);
    assert.match(prose, /@\u200beveryone/, 'the mention is shown, defused');

    const gh = await run(['plan', '--format', 'github']);
    assert.is(gh.code, 0, gh.stderr);
    assertInert(gh.stdout, 'plan --format github');
    for (const line of gh.stdout.trimEnd().split('\n')) assert.match(line, /^::(notice|error|warning) /, `a line that is not an annotation: ${line}`);

    const json = await run(['plan', '--format', 'json', '--out', 'plan.json']);
    assert.is(json.code, 0, json.stderr);
    assert.ok(JSON.parse(json.stdout));
    // JSON.stringify leaves C1 controls, bidirectional overrides and U+2028 raw: they are \u escapes here, in
    // the output and in the saved plan, which parse to the same strings.
    assertInert(json.stdout, 'plan --format json');
    assertInert(readFileSync(join(p.dir, 'plan.json'), 'utf8'), 'plan.json');
    assert.ok(json.stdout.includes('\\u009b31mred\\u202egnp.exe'), 'the escapes are in the JSON text');
    assert.ok(JSON.stringify(JSON.parse(json.stdout)).includes('\u009b31mred\u202egnp.exe'), 'and parse back to the raw characters');

    const apply = await run(['apply', 'plan.json']);
    assertInert(apply.stdout + apply.stderr, 'apply');
    assert.match(apply.stdout + apply.stderr, /created dashboard api-latency|jvm-runtime|checkout/);

    const imp = await run(['import', '--all', '--out', 'imported']);
    assertInert(imp.stdout + imp.stderr, 'import');
    assert.is(imp.code, 1, 'the dashboard with a hostile id is refused');
    assert.match(imp.stdout, /refused "orphan with a hostile id": its id .* is not the shape of an id/);
    for (const f of readdirSync(join(p.dir, 'imported'))) {
      const t = readFileSync(join(p.dir, 'imported', f), 'utf8');
      assert.not.match(t, /kind: Alert/, f);
      // YAML writes control characters as escapes in double quotes (U+2028 stays as it is: YAML 1.2 text).
      assert.not.match(t, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, f);
    }
    const validate = await run(['validate', 'imported']);
    assert.is(validate.code, 0, validate.stdout);
    assert.match(validate.stdout, /2 resources \(2 dashboards\)/);
  } finally {
    await server.close();
    p.cleanup();
  }
});

// --- depth ---------------------------------------------------------------------------------------------------

/** JSON text nested 2n levels (JSON.stringify itself overflows on such a value). */
function deep(n: number): string {
  return '{"a":['.repeat(n) + '{}' + ']}'.repeat(n);
}

const DEPTH_CASES: Array<{
  name: string;
  list?: () => unknown;
  extra?: (m: string, u: string) => { status: number; body: string } | undefined;
  message: RegExp;
}> = [
  {
    name: 'a list answer 10,000 levels deep in a tile',
    list: () => `{"data":[{"id":"x1","name":"deep","tags":[],"tiles":[{"id":"t","name":"t","config":${deep(5_000)}}]}]}`,
    message: /^error: GET \/api\/v2\/dashboards: response nested deeper than 100 levels; refused$/m,
  },
  {
    name: 'a list answer 101 levels deep',
    list: () => `{"data":[{"id":"x1","name":"deep","tags":[],"deep":${deep(49)}}]}`,
    message: /response nested deeper than 100 levels; refused/,
  },
  {
    name: 'an error body 10,000 levels deep',
    extra: (m) => (m === 'GET' ? { status: 400, body: `{"error":${deep(5_000)}}` } : undefined),
    message: /^error: GET \/api\/v2\/dashboards → 400/m,
  },
];

for (const c of DEPTH_CASES) {
  test(`depth: ${c.name} is one line, exit 1, not a stack overflow`, async () => {
    const server = await hostileServer(c.list ?? (() => []), c.extra);
    const p = project(server.url);
    try {
      for (const args of [['plan'], ['apply', '--auto-approve'], ['import', '--all']]) {
        const r = await steward(args, { cwd: p.dir, env: p.env });
        assert.is(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
        assert.not.match(r.stderr, /Maximum call stack|internal error/);
        assert.match(r.stderr, c.message);
        assert.is(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      }
    } finally {
      await server.close();
      p.cleanup();
    }
  });
}

test('depth: YAML nested 1,000 levels gets the depth message, at its line', async () => {
  let block = 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d }\nspec:\n';
  for (let i = 0; i < 1000; i++) block += ' '.repeat(2 + i) + 'k:\n';
  const flow = `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d }\nspec: ${'['.repeat(1000)}${']'.repeat(1000)}\n`;
  for (const text of [block, flow]) {
    const p = tmpProject({ 'd.yaml': text });
    try {
      const r = await steward(['validate', 'd.yaml'], { cwd: p.dir, env: { XDG_CACHE_HOME: join(p.dir, '.xdg') } });
      assert.is(r.code, 1);
      assert.match(r.stdout, /^d\.yaml:\d+:\d+ .*nesting deeper than 64 levels/m);
      assert.not.match(r.stdout, /call stack/);
    } finally {
      p.cleanup();
    }
  }
});

test.run();
