/**
 * Credentials never in any output (issue 13, docs/security.md):
 * - resource files cannot read a credential variable (`${STEWARD_OBS_TOKEN}` and every variable the project
 *   names), an error at file:line:col that does not show the value;
 * - the one redactor hides a credential in every encoding (raw, URL, JSON, base64 in all three alignments,
 *   standard and URL-safe, padded or not, inside `Bearer <token>` and `user:secret`, hex);
 * - a server that echoes the credentials in every encoding, through every command and output format, and
 *   the files they write (plan.json, imported YAML, reports): no encoding of a canary anywhere.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { redact, REDACTED } from '../../src/clients/redact.ts';
import { secretLookingValues, secretWord } from '../../src/config/credentials.ts';
import { redact as redactReport, REDACTED as REPORT_REDACTED } from '../../src/report/redact.ts';
import { defaultSeed } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const TOKEN = 'cnryTOKEN/4f1d+9c2b=7a61e0zz';
const KEY_ID = 'cnryKEYID/81b2+e5d0c3';
const KEY_SECRET = 'cnrySECRET/93c7+ea4=f1b8';
const CANARIES = [TOKEN, KEY_ID, KEY_SECRET];

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const url64 = (s: string) => b64(s).replace(/\+/g, '-').replace(/\//g, '_');

/** Every encoding of a canary a leak could take, each named. */
function encodings(c: string): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['raw', c],
    ['url', encodeURIComponent(c)],
    // What other encoders write: lower-case hex, or only some characters encoded.
    ['url, lower-case hex', encodeURIComponent(c).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['url, first reserved character only', c.replace(/[^A-Za-z0-9\-_.~]/, (m) => encodeURIComponent(m))],
    ['json', JSON.stringify(c).slice(1, -1)],
    ['json \\/', JSON.stringify(c).slice(1, -1).replace(/\//g, '\\/')],
    ['hex', Buffer.from(c).toString('hex')],
    ['HEX', Buffer.from(c).toString('hex').toUpperCase()],
    ['base64(Bearer)', b64(`Bearer ${c}`)],
    ['base64url(Bearer)', url64(`Bearer ${c}`)],
    ['base64(user:secret)', b64(`someone:${c}`)],
    ['base64(secret:x)', b64(`${c}:x`)],
  ];
  for (const prefix of ['', 'a', 'ab']) {
    for (const [name, enc] of [
      ['base64', b64],
      ['base64url', url64],
    ] as const) {
      const full = enc(prefix + c + 'tail');
      out.push([`${name}, offset ${prefix.length}, padded`, full]);
      out.push([`${name}, offset ${prefix.length}, unpadded`, full.replace(/=+$/, '')]);
    }
  }
  return out;
}

/**
 * Whether text shows a canary: any encoding whole, or a run of 12+ characters of an encoding's core (what
 * only the canary's bytes determine). The core of a base64 at an unknown offset: the 3 cores.
 */
function leaks(input: string): string[] {
  let text = input;
  const found: string[] = [];
  for (const c of CANARIES) {
    for (const [name, e] of encodings(c)) if (text.includes(e)) found.push(`${name}(${c})`);
    text = text.toLowerCase().includes(
      c
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .slice(0, 12),
    )
      ? text + '\u0000slug'
      : text;
    if (text.endsWith('\u0000slug')) found.push(`slug of ${c}`);
    const bytes = Buffer.from(c);
    // The slug of a name (import's file names) lowercases and replaces punctuation.
    const cores = [c, Buffer.from(c).toString('hex'), c.toLowerCase().replace(/[^a-z0-9]+/g, '-')];
    for (let off = 0; off < 3; off++) {
      const core = bytes.subarray(off, off + Math.floor((bytes.length - off) / 3) * 3);
      cores.push(core.toString('base64'), core.toString('base64').replace(/\+/g, '-').replace(/\//g, '_'));
    }
    for (const core of cores) {
      for (let i = 0; i + 12 <= core.length; i++) {
        if (text.includes(core.slice(i, i + 12))) {
          found.push(`part of ${core} (${c})`);
          break;
        }
      }
    }
  }
  return found;
}

// --- the redactor, table-driven ----------------------------------------------------------------------------

for (const c of CANARIES) {
  for (const [name, encoded] of encodings(c)) {
    test(`redact: ${name} of ${c.slice(0, 9)}… is hidden in text`, () => {
      const text = `before ${encoded} after`;
      const out = redact(text, CANARIES);
      assert.equal(leaks(out), [], out);
      assert.ok(out.includes(REDACTED), out);
    });
  }
}

test('redact: one marker for the report and every other output', () => {
  assert.is(REPORT_REDACTED, REDACTED);
  const r = redactReport({ message: `echo ${b64(`Bearer ${TOKEN}`)}`, hex: Buffer.from(KEY_SECRET).toString('hex') }, { secrets: [TOKEN, KEY_SECRET] });
  assert.equal(leaks(JSON.stringify(r)), []);
});

test('redact: ordinary text is left alone', () => {
  const text = 'dashboard Checkout overview: 3 tiles, tags team:payments, id 65f5e4a3b9e77c001a567890';
  assert.is(redact(text, CANARIES), text);
});

// --- resource files cannot read credentials ----------------------------------------------------------------

const PROJECT = (extra = '') => `apiVersion: steward/v1
kind: Project
metadata: { name: p }
spec:
  resources: ['dashboards/*.yaml']
  observability:
    url: http://127.0.0.1:9
    token: { env: MY_OBS_TOKEN }
  cloud:
    url: http://127.0.0.1:9
    keyId: { env: MY_KEY_ID }
    keySecret: { env: MY_KEY_SECRET }
  environments:
    prod:
      observability:
        token: { env: PROD_TOKEN }
${extra}`;

const dashboard = (name: string) => `apiVersion: steward/v1
kind: Dashboard
metadata:
  name: d
spec:
  name: ${name}
  tiles: []
`;

const CREDENTIAL_REFS: Array<{ name: string; files: Record<string, string>; at: string; variable: string }> = [
  {
    name: 'the default token variable',
    files: { 'dashboards/d.yaml': dashboard('"status ${STEWARD_OBS_TOKEN}"') },
    at: 'dashboards/d.yaml:6:9',
    variable: 'STEWARD_OBS_TOKEN',
  },
  {
    name: 'the token variable the project names',
    files: { 'dashboards/d.yaml': dashboard('status ${MY_OBS_TOKEN}') },
    at: 'dashboards/d.yaml:6:9',
    variable: 'MY_OBS_TOKEN',
  },
  {
    name: 'the cloud key secret, with a default',
    files: { 'dashboards/d.yaml': dashboard('"${MY_KEY_SECRET:-x}"') },
    at: 'dashboards/d.yaml:6:9',
    variable: 'MY_KEY_SECRET',
  },
  { name: 'the cloud key id', files: { 'dashboards/d.yaml': dashboard('"${MY_KEY_ID}"') }, at: 'dashboards/d.yaml:6:9', variable: 'MY_KEY_ID' },
  { name: "an environment overlay's token", files: { 'dashboards/d.yaml': dashboard('${PROD_TOKEN}') }, at: 'dashboards/d.yaml:6:9', variable: 'PROD_TOKEN' },
  {
    name: 'a resource inside the project file',
    files: { 'steward.yaml': PROJECT(`---\n${dashboard('${MY_OBS_TOKEN}')}`), 'dashboards/x.yaml': dashboard('ok').replace('name: d', 'name: x') },
    at: 'steward.yaml:23:9',
    variable: 'MY_OBS_TOKEN',
  },
  {
    name: 'a tile value (the number a validation error would quote)',
    files: {
      'dashboards/d.yaml': dashboard('n').replace(
        'tiles: []',
        'tiles:\n    - name: t\n      x: ${MY_OBS_TOKEN}\n      y: 0\n      w: 1\n      h: 1\n      series: []',
      ),
    },
    at: 'dashboards/d.yaml:9:10',
    variable: 'MY_OBS_TOKEN',
  },
];

const CREDENTIAL_ENV = {
  MY_OBS_TOKEN: TOKEN,
  STEWARD_OBS_TOKEN: TOKEN,
  MY_KEY_ID: KEY_ID,
  MY_KEY_SECRET: KEY_SECRET,
  PROD_TOKEN: TOKEN,
  XDG_CACHE_HOME: '/nonexistent-steward-test',
};

for (const c of CREDENTIAL_REFS) {
  test(`\${VAR} in a resource: ${c.name} is refused at file:line:col, the value never shown`, async () => {
    const p = tmpProject({ 'steward.yaml': PROJECT(), ...c.files });
    try {
      for (const args of [['validate'], ['validate', '--format', 'json'], ['validate', '--format', 'github'], ['plan']]) {
        const r = await steward(args, { cwd: p.dir, env: { ...CREDENTIAL_ENV, XDG_CACHE_HOME: join(p.dir, '.xdg') } });
        assert.is(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
        const all = r.stdout + r.stderr;
        assert.ok(all.includes(`\${${c.variable}`) && /reads a credential/.test(all), `${args.join(' ')}: ${all}`);
        if (args.length === 1) assert.ok(all.includes(c.at), `expected ${c.at} in ${all}`);
        assert.equal(leaks(all), [], all);
      }
    } finally {
      p.cleanup();
    }
  });
}

test('${VAR} of a credential is refused on worker threads too (large projects parse there)', async () => {
  const { loadWorkspace } = await import('../../src/config/load.ts');
  const { nodeFileSystem } = await import('../../src/config/fs.ts');
  const worker = new URL('../../dist/config/parse-worker.js', import.meta.url);
  const files: Record<string, string> = { 'steward.yaml': PROJECT() };
  for (let i = 0; i < 60; i++) files[`dashboards/d${i}.yaml`] = dashboard(`"n${i}"`).replace('name: d', `name: d${i}`);
  files['dashboards/leak.yaml'] = dashboard('"${MY_OBS_TOKEN}"').replace('name: d', 'name: leak');
  const p = tmpProject(files);
  try {
    const l = await loadWorkspace(
      { fs: nodeFileSystem, env: CREDENTIAL_ENV, cwd: p.dir },
      { requireProject: true, parallel: { workers: 2, minFiles: 0, workerUrl: worker } },
    );
    assert.ok(l.stats.workers > 0, 'the files were parsed on workers');
    const issue = l.issues.find((i) => i.file === 'dashboards/leak.yaml');
    assert.match(issue?.message ?? '', /\$\{MY_OBS_TOKEN\} reads a credential/);
    assert.equal(leaks(JSON.stringify(l.resources)), []);
  } finally {
    p.cleanup();
  }
});

test('${VAR} of a plain variable still works in resources', async () => {
  const p = tmpProject({ 'steward.yaml': PROJECT(), 'dashboards/d.yaml': dashboard('"team ${TEAM}"') });
  try {
    const r = await steward(['validate'], { cwd: p.dir, env: { ...CREDENTIAL_ENV, TEAM: 'payments', XDG_CACHE_HOME: join(p.dir, '.xdg') } });
    assert.is(r.code, 0, r.stdout + r.stderr);
  } finally {
    p.cleanup();
  }
});

// --- variables whose names say they hold secrets (a CI job's GITHUB_TOKEN, AWS keys) ---------------------------

const SECRET_WORD_CASES: Array<[string, string | undefined]> = [
  ['GITHUB_TOKEN', 'TOKEN'],
  ['NPM_TOKEN', 'TOKEN'],
  ['ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'TOKEN'],
  ['AWS_SECRET_ACCESS_KEY', 'SECRET'],
  ['AWS_ACCESS_KEY_ID', 'ACCESS_KEY'],
  ['DB_PASSWORD', 'PASSWORD'],
  ['PGPASSWORD', 'PASSWORD'], // a word ending in one (libpq's name)
  ['GHTOKEN', 'TOKEN'],
  ['MYSQL_PWD', 'PWD'],
  ['PWD', undefined], // the shell's current folder
  ['OLDPWD', undefined],
  ['PASSWORDLESS', undefined],
  ['SMTP_PASS', 'PASS'],
  ['SENTRY_DSN', 'DSN'],
  ['STRIPE_API_KEY', 'API_KEY'],
  ['apiKey', 'API_KEY'],
  ['githubToken', 'TOKEN'],
  ['ssh_private_key', 'PRIVATE_KEY'],
  ['BASIC_AUTH', 'AUTH'],
  ['TEAM', undefined],
  ['SORT_KEY', undefined],
  ['KEYBOARD_LAYOUT', undefined],
  ['BYPASS_CACHE', undefined],
  ['TOKENIZER', undefined],
  ['PASSAGE', undefined],
  ['AUTHOR', undefined],
  // A number at a word's end is not a new word (red team, round 11: GITHUB_TOKEN2 was read).
  ['GITHUB_TOKEN2', 'TOKEN'],
  ['DB_PASSWORD1', 'PASSWORD'],
  ['dbPassword2', 'PASSWORD'],
  ['API_KEY2', 'API_KEY'],
  ['PRIVATE_KEY1', 'PRIVATE_KEY'],
  ['SECRET1', 'SECRET'],
  ['DB_PWD1', 'PWD'],
  ['V2TOKEN', 'TOKEN'],
  ['S3_BUCKET', undefined],
  ['HTTP2_PORT', undefined],
  // A KEY run together with what makes it a secret's (red team, round 11: SECRETKEY was read).
  ['SECRETKEY', 'SECRET_KEY'],
  ['DJANGO_SECRETKEY', 'SECRET_KEY'],
  ['AWS_ACCESSKEYID', 'ACCESS_KEY'],
  ['SESSIONKEY', 'SESSION_KEY'],
  ['XAPIKey', 'API_KEY'],
  ['MONKEY', undefined],
  ['HOTKEY', undefined],
  ['SORTKEY', undefined],
  // Windows reads environment names ignoring case: ${GITHUB_ToKeN} is GITHUB_TOKEN there, whatever its humps
  // say (red team, round 11).
  ['GITHUB_ToKeN', 'TOKEN'],
  ['GiThUb_ToKeN', 'TOKEN'],
  ['db_PaSsWoRd', 'PASSWORD'],
  ['aWs_SeCrEt_AcCeSs_KeY', 'SECRET'],
  ['tokenizerPath', undefined],
  ['authorName', undefined],
  // CI secrets under names the list missed (red team): a personal access token, a webhook's URL (its path is
  // the key), a connection string (AccountKey=…).
  ['GH_PAT', 'PAT'],
  ['GITHUB_PAT', 'PAT'],
  ['adoPat', 'PAT'],
  ['SLACK_WEBHOOK_URL', 'WEBHOOK_URL'],
  ['AZURE_STORAGE_CONNECTION_STRING', 'CONNECTION_STRING'],
  ['DB_CONNSTR', 'CONNSTR'],
  ['PATH', undefined],
  ['PATTERN', undefined],
  ['WEBHOOK_NAME', undefined],
  ['CONNECTION_TIMEOUT', undefined],
];

test('secretWord: which names say they hold a secret', () => {
  for (const [name, word] of SECRET_WORD_CASES) assert.is(secretWord(name), word, name);
});

test('secretLookingValues: values of secret names, long enough not to be ordinary words', () => {
  const values = secretLookingValues({
    GITHUB_TOKEN: 'ghs_abcdefghijkl',
    AUTH_MODE: 'disabled',
    DB_PASS: 'pw12345x',
    TEAM: 'payments-and-billing',
    X_TOKEN: '',
  });
  assert.equal(values.sort(), ['ghs_abcdefghijkl', 'pw12345x']);
});

const CI_SECRET = 'ghs_cnrySecretValue0123456789';

for (const [name, ref, word] of [
  ['GITHUB_TOKEN', '"${GITHUB_TOKEN}"', 'TOKEN'],
  ['AWS_SECRET_ACCESS_KEY, with a default', '"k ${AWS_SECRET_ACCESS_KEY:-none}"', 'SECRET'],
  ['a camelCase apiKey', '"${apiKey}"', 'API_KEY'],
  ['a personal access token GH_PAT', '"${GH_PAT}"', 'PAT'],
  ['a webhook URL SLACK_WEBHOOK_URL', '"${SLACK_WEBHOOK_URL}"', 'WEBHOOK_URL'],
] as const) {
  test(`\${VAR} in a resource: ${name} (a secret by its name) is refused at file:line:col without a prefix, its value never shown`, async () => {
    const p = tmpProject({ 'steward.yaml': PROJECT(), 'dashboards/d.yaml': dashboard(ref) });
    try {
      const env = {
        GITHUB_TOKEN: CI_SECRET,
        AWS_SECRET_ACCESS_KEY: CI_SECRET,
        apiKey: CI_SECRET,
        GH_PAT: CI_SECRET,
        SLACK_WEBHOOK_URL: CI_SECRET,
        XDG_CACHE_HOME: join(p.dir, '.xdg'),
      };
      for (const args of [['validate'], ['plan'], ['plan', '--format', 'json']]) {
        const r = await steward(args, { cwd: p.dir, env });
        const all = r.stdout + r.stderr;
        assert.is(r.code, 1, `${args.join(' ')}: ${all}`);
        assert.ok(all.includes(`may hold a secret (${word} in its name)`), all);
        if (args.length === 1) assert.ok(all.includes('dashboards/d.yaml:6:9'), all);
        assert.not.ok(all.includes(CI_SECRET.slice(8)), all);
      }
    } finally {
      p.cleanup();
    }
  });
}

// steward.yaml may be changed by a pull request too: `spec.state: ${GITHUB_TOKEN}.json` wrote the token into a
// file's name (on disk, in `git status`, in an uploaded artifact's listing). Its settings read no secret-named
// variable, with or without a prefix; the credential variables keep their own message.
for (const [setting, line, message] of [
  [
    'spec.state',
    '  state: .steward/${GITHUB_TOKEN}.json\n',
    /steward\.yaml:\d+:\d+ +\/spec\/state +error: \$\{GITHUB_TOKEN\} may hold a secret \(TOKEN in its name\): steward\.yaml's settings may not read secrets/,
  ],
  ['spec.journal', '  journal: "${AWS_SECRET_ACCESS_KEY}"\n', /\/spec\/journal +error: \$\{AWS_SECRET_ACCESS_KEY\} may hold a secret \(SECRET in its name\)/],
  ['spec.concurrency', '  concurrency: "p-${GITHUB_TOKEN}"\n', /\/spec\/concurrency +error: \$\{GITHUB_TOKEN\} may hold a secret/],
  [
    'spec.state with a prefix set',
    '  resourceVariablePrefix: GITHUB_\n  state: ${GITHUB_TOKEN}\n',
    /\/spec\/state +error: \$\{GITHUB_TOKEN\} may hold a secret/,
  ],
  [
    'spec.state reading the token',
    '  state: ${STEWARD_OBS_TOKEN}.json\n',
    /\/spec\/state +error: \$\{STEWARD_OBS_TOKEN\} reads a credential .*steward\.yaml names credentials only as token: \{ env: STEWARD_OBS_TOKEN \}/,
  ],
] as const) {
  test(`steward.yaml's ${setting} may not read a secret-named variable: refused at its line, the value never shown`, async () => {
    const p = tmpProject({
      // (not metadata.name, which is never interpolated: it makes the marker tag)
      'steward.yaml': PROJECT().replace("  resources: ['dashboards/*.yaml']\n", `  resources: ['dashboards/*.yaml']\n${line}`),
      'dashboards/d.yaml': dashboard('"ok"'),
    });
    try {
      for (const format of ['text', 'json', 'github']) {
        const r = await steward(['validate', '--format', format], {
          cwd: p.dir,
          env: { GITHUB_TOKEN: CI_SECRET, AWS_SECRET_ACCESS_KEY: CI_SECRET, STEWARD_OBS_TOKEN: CI_SECRET, XDG_CACHE_HOME: join(p.dir, '.xdg') },
        });
        const all = r.stdout + r.stderr;
        assert.is(r.code, 1, all);
        if (format === 'text') assert.match(all, message);
        assert.not.ok(all.includes(CI_SECRET.slice(8)), all);
      }
    } finally {
      p.cleanup();
    }
  });
}

// --- spec.resourceVariablePrefix: what else resource files may read ----------------------------------------

const PREFIXED = (extra = '') =>
  PROJECT(extra).replace(
    "  resources: ['dashboards/*.yaml']\n",
    "  resources: ['dashboards/*.yaml']\n  resourceVariablePrefix: DASH_\n  state: ${STATE_FILE:-.steward/state.json}\n",
  );

const PREFIX_CASES: Array<{ name: string; ref: string; ok: boolean; message?: RegExp }> = [
  { name: 'a variable with the prefix', ref: '"team ${DASH_TEAM}"', ok: true },
  // The project chose the prefix: a name with it is read even when it says secret (the value is still redacted).
  { name: 'a secret-named variable with the prefix', ref: '"${DASH_API_KEY}"', ok: true },
  { name: 'one with the prefix and a default', ref: '"team ${DASH_MISSING:-none}"', ok: true },
  {
    name: 'a CI secret without the prefix',
    ref: '"${GITHUB_TOKEN}"',
    ok: false,
    message: /\$\{GITHUB_TOKEN\} is not readable here: resource files may read only variables whose names start with DASH_ \(spec\.resourceVariablePrefix\)/,
  },
  { name: 'a credential, even named with the prefix', ref: '"${DASH_TOKEN}"', ok: false, message: /\$\{DASH_TOKEN\} reads a credential/ },
  // Windows reads environment names ignoring case: another spelling of a credential's name is that credential.
  { name: 'a credential spelled in other letter case', ref: '"${DASH_token}"', ok: false, message: /\$\{DASH_token\} reads a credential/ },
];

for (const c of PREFIX_CASES) {
  test(`resourceVariablePrefix: ${c.name} is ${c.ok ? 'read' : 'refused'}; the project file itself is not held to the prefix`, async () => {
    const project = PREFIXED().replace('token: { env: MY_OBS_TOKEN }', 'token: { env: DASH_TOKEN }');
    const p = tmpProject({ 'steward.yaml': project, 'dashboards/d.yaml': dashboard(c.ref) });
    try {
      const env = { DASH_TEAM: 'payments', DASH_API_KEY: 'k', GITHUB_TOKEN: 'ghs_secretsecretsecret', DASH_TOKEN: TOKEN, XDG_CACHE_HOME: join(p.dir, '.xdg') };
      const r = await steward(['validate'], { cwd: p.dir, env });
      assert.is(r.code, c.ok ? 0 : 1, r.stdout + r.stderr);
      if (c.message) {
        assert.match(r.stdout, c.message);
        assert.ok(r.stdout.includes('dashboards/d.yaml:6:9'), r.stdout);
      }
      assert.not.ok((r.stdout + r.stderr).includes('ghs_secret'));
      assert.equal(leaks(r.stdout + r.stderr), []);
    } finally {
      p.cleanup();
    }
  });
}

// --- a server echoing the credentials in every encoding, through every command -------------------------------

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (statSync(p).size < 10 * 1024 * 1024) out.push(p);
  }
  return out;
}

test('a server echoing canaries in every encoding: validate, plan (every format, --out), apply, import print and write none', async () => {
  const seed = defaultSeed();
  const echoed = CANARIES.flatMap((c) => encodings(c).map(([, e]) => e));
  seed.dashboards = [
    { id: 'aaaaaaaaaaaaaaaaaaaaaaa1', name: `Echo ${echoed.slice(0, 20).join(' ')}`, tags: [`t-${echoed[5]}`], tiles: [] },
    { id: 'aaaaaaaaaaaaaaaaaaaaaaa2', name: `Echo two ${echoed.slice(20).join(' ')}`, tags: [], tiles: [] },
  ];
  const x = await examplesWithEmulator({ token: TOKEN, keyId: KEY_ID, keySecret: KEY_SECRET, data: seed });
  try {
    const env = { ...x.env, STEWARD_OBS_TOKEN: TOKEN, STEWARD_CLOUD_KEY_ID: KEY_ID, STEWARD_CLOUD_KEY_SECRET: KEY_SECRET, XDG_CACHE_HOME: join(x.dir, '.xdg') };
    // The seeded names must be what the plan sees: the orphan list shows them (so absence means redaction).
    writeFileSync(join(x.dir, 'steward.yaml'), readFileSync(join(x.dir, 'steward.yaml'), 'utf8'));
    const runs: Array<[string[], number[]]> = [
      [['validate'], [0]],
      [['plan', '--debug'], [0]],
      [['plan', '--format', 'json'], [0]],
      [['plan', '--format', 'markdown'], [0]],
      [['plan', '--format', 'github'], [0]],
      [['plan', '--out', 'plan.json'], [0]],
      [
        ['import', '--all', '--out', 'imported', '--debug'],
        [0, 1],
      ],
      [
        ['apply', 'plan.json', '--format', 'json'],
        [0, 1],
      ],
    ];
    for (const [args, codes] of runs) {
      const r = await steward(args, { cwd: x.dir, env });
      assert.ok(codes.includes(r.code ?? -1), `${args.join(' ')} exited ${r.code}: ${r.stderr}`);
      if (process.env['SEC_DEBUG']) console.log(args.join(' '), r.code, r.stdout.slice(0, 1500), r.stderr.slice(0, 1500));
      assert.equal(leaks(r.stdout + r.stderr), [], `${args.join(' ')}:\n${(r.stdout + r.stderr).slice(0, 2000)}`);
    }
    for (const f of filesUnder(x.dir)) assert.equal(leaks(readFileSync(f, 'utf8')), [], relative(x.dir, f));
    assert.ok(readdirSync(join(x.dir, 'imported')).length >= 2, `import wrote the echoing dashboards: ${readdirSync(join(x.dir, 'imported'))}`);
  } finally {
    await x.cleanup();
  }
});

test.run();
