/**
 * A secret cut short is still a secret: text is cut in many places (a validation error quoted 40 characters
 * of a string, apply's progress line fits the terminal), and the part left before the ellipsis no longer
 * matched the whole value the output sink looks for (red team: 38 of GITHUB_TOKEN's 40 characters in a
 * validate error, in every format). Those cuts now redact first; the redactor also takes half a secret or
 * more before an ellipsis, never less (no oracle). And a quoted secret escaped for Markdown before redaction (plan
 * --format markdown of files that do not validate).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { redact } from '../../src/clients/redact.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const GITHUB_TOKEN = 'ghp_CANARYabcdefghijklmnopqrstuvwxyz0123';
const API_KEY = 'sk_live_CANARY_0123456789abcdefghijklmn';

/** Any 6 characters of the secret in a row, the first piece a leak shows. */
function leaked(text: string, secret: string): string | undefined {
  for (let i = 0; i + 6 <= secret.length; i++) if (text.includes(secret.slice(i, i + 6))) return secret.slice(i, i + 6);
  return undefined;
}

const project = (extra: string) => `apiVersion: steward/v1
kind: Project
metadata: { name: p }
spec:
  resources: ["dashboards/*.yaml"]
${extra}  observability:
    url: http://127.0.0.1:9
    token: { env: STEWARD_OBS_TOKEN }
`;

const dashboard = (x: string) => `apiVersion: steward/v1
kind: Dashboard
metadata: { name: d }
spec:
  name: d
  tiles:
    - name: t
      x: ${x}
      y: 0
      w: 1
      h: 1
      series: []
`;

// The Project document reads no secret-named variable since 18fb75e: its rows now expect the refusal, which
// must not show the value either.
const REFUSED = /may hold a secret \((TOKEN|PASSWORD) in its name\): steward\.yaml's settings may not read secrets/;

const CASES: Array<{ name: string; files: Record<string, string>; secret: string; message?: RegExp }> = [
  {
    name: "the Project document's ${GITHUB_TOKEN} in a value that must be a number",
    files: { 'steward.yaml': project('  concurrency: "xx${GITHUB_TOKEN}"\n'), 'dashboards/d.yaml': dashboard('0') },
    secret: GITHUB_TOKEN,
    message: REFUSED,
  },
  {
    name: 'a secret-named variable a resource reads under resourceVariablePrefix, in a tile position',
    files: { 'steward.yaml': project('  resourceVariablePrefix: DASH_\n'), 'dashboards/d.yaml': dashboard('"pad ${DASH_API_KEY}"') },
    secret: API_KEY,
  },
];

test('validate: a resource pattern climbing out with .. that reads ${GITHUB_TOKEN}, quoted, shows no part of it', async () => {
  const pattern = `../${'a'.repeat(44)}/\${GITHUB_TOKEN}/*.yaml`;
  const dir = tmpProject({ 'steward.yaml': project('').replace('["dashboards/*.yaml"]', JSON.stringify([pattern])), 'dashboards/d.yaml': dashboard('0') });
  try {
    const r = await steward(['validate'], { cwd: dir.dir, env: { GITHUB_TOKEN, STEWARD_OBS_TOKEN: 'tok-0123456789abcdef' } });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, REFUSED);
    assert.is(leaked(r.stdout + r.stderr, GITHUB_TOKEN), undefined, r.stdout + r.stderr);
  } finally {
    dir.cleanup();
  }
});

test('validate: a template parameter reading a prefixed secret, quoted in its type error, shows no part of it', async () => {
  const template = `apiVersion: steward/v1
kind: Template
metadata: { name: t }
spec:
  key: k
  parameters:
    k: { type: string }
    n: { type: number }
  dashboards:
    - spec: { name: "d $(params.k) $(params.n)", tiles: [] }
---
apiVersion: steward/v1
kind: TemplateInstance
metadata: { name: i }
spec:
  template: t
  parameters:
    k: a
    n: "${'x'.repeat(50)}\${DASH_API_KEY}"
`;
  const dir = tmpProject({ 'steward.yaml': project('  resourceVariablePrefix: DASH_\n'), 'dashboards/t.yaml': template });
  try {
    const r = await steward(['validate'], { cwd: dir.dir, env: { DASH_API_KEY: API_KEY, STEWARD_OBS_TOKEN: 'tok-0123456789abcdef' } });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /must be a number, found the string/);
    assert.is(leaked(r.stdout + r.stderr, API_KEY), undefined, r.stdout + r.stderr);
  } finally {
    dir.cleanup();
  }
});

for (const c of CASES) {
  for (const format of ['text', 'json', 'github']) {
    test(`validate --format ${format}: ${c.name}, quoted, shows no part of it`, async () => {
      const dir = tmpProject(c.files);
      try {
        const env = { GITHUB_TOKEN, DASH_API_KEY: API_KEY, STEWARD_OBS_TOKEN: 'tok-0123456789abcdef' };
        const r = await steward(['validate', '--format', format], { cwd: dir.dir, env });
        assert.is(r.code, 1, r.stdout + r.stderr);
        assert.match(r.stdout + r.stderr, c.message ?? /the string \\?"[^"\\]*\[redacted\]/);
        assert.is(leaked(r.stdout + r.stderr, c.secret), undefined, r.stdout + r.stderr);
      } finally {
        dir.cleanup();
      }
    });
  }
}

test('apply on a terminal: a live name holding the token, cut to the width in the progress line, shows no part of it', async () => {
  const token = 'CANARYtok0123456789abcdefghijklmnopqrstuv';
  const dir = tmpProject({});
  copyExample(dir.dir, 'hyperdx');
  const emu = await startEmulator({ api: 'hyperdx', seed: 19, token });
  try {
    const made = await fetch(`${emu.url}/api/v2/dashboards`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Old ${token}`, tiles: [], tags: ['managed-by:steward/acme-hyperdx'] }),
    });
    assert.ok(made.ok, await made.text());
    let stdout = '';
    let stderr = '';
    const code = await main(['apply', '--prune', '--yes'], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...emu.env },
      cwd: dir.dir,
      // "[n/m] deleting dashboard Old " is 30 characters: the line is cut 14 characters into the token.
      stdout: { write: (t: string) => (stdout += t), isTTY: true, columns: 46 },
      stderr: { write: (t: string) => (stderr += t) },
      stdin: Readable.from(['']),
    });
    assert.is(code, 0, stdout + stderr);
    assert.match(stdout, /deleting dashboard Old \[redacted\]/);
    assert.is(leaked(stdout + stderr, token), undefined, stdout + stderr);
  } finally {
    await emu.close();
    dir.cleanup();
  }
});

// plan --format markdown on files that do not validate (the PR comment): the message quoting the value was
// escaped for Markdown before any redaction saw it (`sk\_live\_…`, a zero-width space after `www`).
const MARKDOWN_SECRETS = ['sk_live_CANARY_0123456789abc*def', 'sk-live-CANARY-0123456789-www.x.io/@bob'];

for (const secret of MARKDOWN_SECRETS) {
  for (const format of ['markdown', 'json', 'github']) {
    test(`plan --format ${format} of invalid files quoting ${secret}: no part of it`, async () => {
      const dir = tmpProject({ 'steward.yaml': project('  resourceVariablePrefix: DASH_\n'), 'dashboards/d.yaml': dashboard('"${DASH_API_KEY}"') });
      try {
        const r = await steward(['plan', '--format', format], { cwd: dir.dir, env: { DASH_API_KEY: secret, STEWARD_OBS_TOKEN: 'tok-0123456789abcdef' } });
        assert.is(r.code, 1, r.stdout + r.stderr);
        assert.match(r.stdout, /redacted/);
        assert.is(leaked(r.stdout + r.stderr, secret), undefined, r.stdout + r.stderr);
        assert.not.match(r.stdout + r.stderr, /CANARY/);
      } finally {
        dir.cleanup();
      }
    });
  }
}

// A plain `x: ${VAR}` takes the type its value reads as: a number-like secret past a double's precision was
// printed rounded, which matched no form of the value.
const NUMBER_CASES: Array<{ name: string; files: Record<string, string>; secret: string; message?: RegExp }> = [
  {
    name: "the Project document's ${DB_PASSWORD}",
    files: { 'steward.yaml': project('  concurrency: ${DB_PASSWORD}\n'), 'dashboards/d.yaml': dashboard('0') },
    secret: '1.2345678901234567890123',
    message: REFUSED,
  },
  {
    name: 'a prefixed secret as a dashboard name',
    files: {
      'steward.yaml': project('  resourceVariablePrefix: DASH_\n'),
      'dashboards/d.yaml': dashboard('0').replace('name: d\n  tiles', 'name: ${DASH_API_KEY}\n  tiles'),
    },
    secret: '98765432109876543210',
  },
];

for (const c of NUMBER_CASES) {
  test(`validate: ${c.name}, a number-like secret read as a rounded number, shows no digits of it`, async () => {
    const dir = tmpProject(c.files);
    try {
      const r = await steward(['validate'], {
        cwd: dir.dir,
        env: { DB_PASSWORD: c.secret, DASH_API_KEY: c.secret, STEWARD_OBS_TOKEN: 'tok-0123456789abcdef' },
      });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout + r.stderr, c.message ?? /found number \[redacted\]/);
      assert.is(leaked(r.stdout + r.stderr, c.secret), undefined, r.stdout + r.stderr);
    } finally {
      dir.cleanup();
    }
  });
}

const REDACTOR_CASES: Array<{ text: string; want: string }> = [
  { text: 'the string "xxghp_CANARYabcdefghijklmnopqrstuvwxyz01…"', want: 'the string "xx[redacted]…"' },
  { text: 'cut at the start: …klmnopqrstuvwxyz0123 and on', want: 'cut at the start: …[redacted] and on' },
  { text: 'three dots: ghp_CANARYabcdefghijklmn...', want: 'three dots: [redacted]...' },
  { text: 'both: ghp_CANARYabcdefghij…klmnopqrstuvwxyz0123', want: 'both: [redacted]…[redacted]' },
  // Less than half of it is left as it is: else any text before an ellipsis (a dashboard's name) would show
  // [redacted] exactly when it starts a secret, an oracle reading it out a character at a time.
  { text: 'a guess: ghp_CANARY…', want: 'a guess: ghp_CANARY…' },
  { text: 'a longer guess: ghp_CANARYabcdefghi…', want: 'a longer guess: ghp_CANARYabcdefghi…' },
  { text: 'three characters are left: ghp…', want: 'three characters are left: ghp…' },
  { text: 'not a cut: ghp_CANARYabc and more', want: 'not a cut: ghp_CANARYabc and more' },
  { text: 'an ellipsis of its own… and more…', want: 'an ellipsis of its own… and more…' },
];

for (const c of REDACTOR_CASES) {
  test(`redact: ${c.text}`, () => {
    assert.is(redact(c.text, [GITHUB_TOKEN]), c.want);
  });
}

test.run();
