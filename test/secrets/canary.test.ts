/**
 * Canary credentials through every command. The three credential variables hold distinct canary strings the
 * emulator is started to accept, and a pipe's connection string holds a fourth. Every command runs (validate;
 * plan in each format and with --out; apply of a saved plan and with --format json; report in each format;
 * import), each also with --debug, and the failures too: a wrong token (401), and a server answering 500 or
 * an unreadable 200 with the canaries echoed in its body. No canary may appear, whole or in part, raw,
 * base64, URL-encoded or JSON-escaped, nor `Basic base64(keyId:keySecret)`, in stdout, stderr, or any file
 * the run leaves in the project: plan.json, journal, state file, report files, imported YAML.
 */
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultSeed, startEmulator } from '../../src/emulator/index.ts';
import { startServer } from '../clients/helpers.ts';
import { steward as run } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

// Distinct, and with characters that URL-encoding and base64 change ('/', '+', '='), so each form differs.
const TOKEN = 'cnryTOKEN/4f1d+9c2b=7a61e0';
const KEY_ID = 'cnryKEYID/81b2+e5d0c3';
const KEY_SECRET = 'cnrySECRET/93c7+ea4=f1b8';
const CONN_SECRET = 'cnryCONNSTR/6d2e+0b9a=c4';
const CONNECTION_STRING = `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${CONN_SECRET};EndpointSuffix=core.windows.net`;
const WRONG_TOKEN = 'cnryWRONG/0a9b+8c7d=6e5f';
const BASIC = Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64');

const CANARIES = [TOKEN, KEY_ID, KEY_SECRET, CONN_SECRET, WRONG_TOKEN];

/** Every form a leak could take: raw, base64, URL-encoded, JSON-escaped, and the Basic credential. */
const FORMS: Array<[string, string]> = [
  ...CANARIES.flatMap((c): Array<[string, string]> => [
    [c, c],
    [`base64(${c})`, Buffer.from(c).toString('base64')],
    [`url(${c})`, encodeURIComponent(c)],
    [`json(${c})`, JSON.stringify(c).slice(1, -1).replace(/\//g, '\\/')],
  ]),
  [`Basic base64(keyId:keySecret)`, BASIC],
];

/** A part of a canary long enough to be one (a message cut short must not show its beginning either). */
const WINDOW = 8;

function leaksIn(text: string): string[] {
  const found = FORMS.filter(([, v]) => text.includes(v)).map(([k]) => k);
  for (const c of CANARIES) {
    for (let i = 0; i + WINDOW <= c.length; i++) {
      if (text.includes(c.slice(i, i + WINDOW))) {
        found.push(`part of ${c}: "${c.slice(i, i + WINDOW)}"`);
        break;
      }
    }
  }
  return found;
}

/** Every file under dir (the project: plan.json, .steward/*, reports, imported YAML). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (statSync(p).size < 50 * 1024 * 1024) out.push(p);
  }
  return out;
}

interface Run {
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * In process by default (the code the binary runs, without a node start-up per run: 25 spawned runs cost ~35 s
 * of CPU); `spawn` runs the built binary, so the launcher's own output is covered too.
 */
async function steward(args: string[], cwd: string, env: Record<string, string>, spawn = false): Promise<Run> {
  const r = await run(args, { cwd, env, spawn });
  return { args, ...r };
}

/** examples/ in a temp folder; the client rate limit raised, a short timeout for the failure servers. */
function project(): { dir: string; cleanup: () => void } {
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replaceAll('requestsPerMinute: 100', 'requestsPerMinute: 6000\n    timeoutSeconds: 2'));
  return p;
}

const envFor = (url: string, token = TOKEN) => ({
  STEWARD_OBS_URL: url,
  STEWARD_CLOUD_URL: url,
  STEWARD_OBS_TOKEN: token,
  STEWARD_CLOUD_KEY_ID: KEY_ID,
  STEWARD_CLOUD_KEY_SECRET: KEY_SECRET,
});

/** Asserts no leak in the runs' output and in any file under dir; returns a line per run for messages. */
function assertNoLeak(runs: Run[], dir: string, expect: (r: Run) => void): void {
  for (const r of runs) {
    expect(r);
    const leaks = leaksIn(r.stdout + '\n' + r.stderr);
    assert.equal(leaks, [], `steward ${r.args.join(' ')} printed ${leaks.join(', ')}:\n${(r.stdout + r.stderr).slice(0, 3000)}`);
  }
  for (const f of filesUnder(dir)) {
    const leaks = leaksIn(readFileSync(f, 'utf8'));
    assert.equal(leaks, [], `${relative(dir, f)} holds ${leaks.join(', ')}`);
  }
}

function seedWithCanary() {
  const seed = defaultSeed();
  const pipe = seed.organizations![0]!.services![0]!.pipes!.find((p) => p['name'] === 'logs-from-s3')!;
  (pipe['source'] as Record<string, Record<string, unknown>>)['objectStorage']!['connectionString'] = CONNECTION_STRING;
  return seed;
}

const ok = (r: Run) => assert.is(r.code, 0, `steward ${r.args.join(' ')} exited ${r.code}:\n${r.stderr}`);
const failed = (r: Run) => {
  assert.is(r.code, 1, `steward ${r.args.join(' ')} exited ${r.code}:\n${r.stdout}${r.stderr}`);
  assert.not.match(r.stderr, /internal error/);
};

async function everyCommand(): Promise<void> {
  const emu = await startEmulator({ seed: 1, token: TOKEN, keyId: KEY_ID, keySecret: KEY_SECRET, data: seedWithCanary() });
  const p = project();
  try {
    const env = envFor(emu.url);
    const run = (args: string[]) => steward(args, p.dir, env);
    // Reads first (in parallel: they change nothing), then the writes in order, then reads of the result.
    const reads = await Promise.all([
      run(['validate']),
      run(['validate', '--debug', '--format', 'json']),
      run(['plan', '--debug', '--format', 'json']),
      run(['plan', '--format', 'markdown']),
      run(['plan', '--debug', '--format', 'github']),
      run(['plan', '--out', 'plan.json', '--debug']),
    ]);
    assertNoLeak(reads, p.dir, ok);
    const apply = await run(['apply', 'plan.json', '--debug']);
    const reassert = await run(['apply', '--auto-approve', '--reassert-alerts', '--format', 'json', '--debug']);
    assertNoLeak([apply, reassert], p.dir, ok);
    const after = await Promise.all([
      run(['plan', '--detailed-exitcode', '--debug']),
      run(['report']),
      run(['report', '--format', 'json', '--out', 'reports-json', '--debug']),
      run(['report', '--format', 'markdown', '--out', 'reports-md']),
      run(['import', '--all', '--out', 'imported', '--debug']),
    ]);
    // report exits 2 only with --fail-on; its findings on the default seed are not failures here.
    assertNoLeak(after, p.dir, ok);
    // The connection string is not shown in any form, not even its key name.
    for (const r of [...reads, apply, reassert, ...after]) assert.not.match(r.stdout + r.stderr, 'AccountKey=');
    for (const f of filesUnder(p.dir)) assert.not.match(readFileSync(f, 'utf8'), 'AccountKey=', relative(p.dir, f));
    // The runs did what they say (so the absence of leaks means something).
    assert.match(apply.stdout, /3 created, 4 updated/);
    assert.match(after[1]!.stdout, /logs-from-s3/);
    assert.ok(readdirSync(join(p.dir, 'imported')).length === 3);
    assert.match(reads[2]!.stderr, /\[http\] http GET .*\/api\/v2\/dashboards → 200/, 'the --debug trace was on');
    assert.match(reads[5]!.stdout, /steward plan: 3 to create, 4 to update/);
    assert.match(readFileSync(join(p.dir, 'reports-json/report.json'), 'utf8'), /logs-from-s3/);
  } finally {
    await emu.close();
    p.cleanup();
  }
}

async function wrongCredentials(): Promise<void> {
  const emu = await startEmulator({ seed: 1, token: TOKEN, keyId: KEY_ID, keySecret: `${KEY_SECRET}-other`, data: seedWithCanary() });
  const p = project();
  try {
    const env = envFor(emu.url, WRONG_TOKEN);
    const runs = await Promise.all(
      [
        ['apply', '--auto-approve', '--debug'],
        ['import', '--all', '--debug'],
        ['report', '--debug'],
      ].map((a) => steward(a, p.dir, env, true)),
    );
    assertNoLeak(runs, p.dir, failed);
    for (const r of runs.slice(0, 2)) assert.match(r.stderr, /^error: GET \/api\/v2\/dashboards → 401 Unauthorized.*check the token in STEWARD_OBS_TOKEN$/m);
    assert.match(runs[2]!.stdout, /401/);
  } finally {
    await emu.close();
    p.cleanup();
  }
}

/** A server that echoes every credential it knows, and the Authorization header it got, in its body. */
function echoBody(authorization: string | undefined, pad: number): string {
  // The padding puts a secret across the 200-character cut of error messages.
  return `${'x'.repeat(pad)} token=${TOKEN} keyId=${KEY_ID} keySecret=${KEY_SECRET} basic=${BASIC} conn=${CONNECTION_STRING} got=${authorization ?? ''}`;
}

/** What the echoing servers answer; `pad` puts the token across the 200-character cut of error messages. */
const ECHO_CASES: Array<{ name: string; pad: number; answer: (auth: string | undefined, pad: number) => { status: number; type: string; body: string } }> = [
  {
    name: 'a 500 with a JSON message',
    pad: 0,
    answer: (auth, pad) => ({ status: 500, type: 'application/json', body: JSON.stringify({ message: echoBody(auth, pad), requestId: TOKEN }) }),
  },
  {
    name: 'a 500 with a JSON message, the token across the cut',
    pad: 178,
    answer: (auth, pad) => ({ status: 500, type: 'application/json', body: JSON.stringify({ message: echoBody(auth, pad) }) }),
  },
  { name: 'a 500 of plain text, the token across the cut', pad: 178, answer: (auth, pad) => ({ status: 500, type: 'text/plain', body: echoBody(auth, pad) }) },
  {
    name: 'a 200 HTML page',
    pad: 0,
    answer: (auth, pad) => ({ status: 200, type: 'text/html', body: `<html><head><title>Proxy</title></head><body>${echoBody(auth, pad)}</body></html>` }),
  },
  // JSON.parse's own message quotes the first characters of the body.
  {
    name: 'a 200 of text that starts with the token',
    pad: 0,
    answer: (auth) => ({ status: 200, type: 'application/json', body: `${TOKEN} ${echoBody(auth, 0)}` }),
  },
];

async function echoingServers(): Promise<void> {
  await Promise.all(
    ECHO_CASES.map(async ({ name, answer, pad }) => {
      const server = await startServer((req, res) => {
        const a = answer(req.headers.authorization, pad);
        res.writeHead(a.status, { 'content-type': a.type, 'x-request-id': KEY_SECRET });
        res.end(a.body);
      });
      const p = project();
      try {
        const env = envFor(server.url);
        // Every command on the first case, plan and report (one client each) on the second, plan on the others
        // (the redaction is the clients' own, the same under every command).
        const i = ECHO_CASES.findIndex((c) => c.name === name);
        const commands =
          i === 0
            ? [
                ['plan', '--debug'],
                ['apply', '--auto-approve', '--debug'],
                ['import', '--all', '--debug'],
                ['report', '--debug', '--format', 'json'],
              ]
            : i === 1
              ? [
                  ['plan', '--debug'],
                  ['report', '--debug', '--format', 'json'],
                ]
              : [['plan', '--debug']];
        const runs = await Promise.all(commands.map((a) => steward(a, p.dir, env)));
        try {
          assertNoLeak(runs, p.dir, failed);
        } catch (e) {
          (e as Error).message = `${name}: ${(e as Error).message}`;
          throw e;
        }
      } finally {
        await server.close();
        p.cleanup();
      }
    }),
  );
}

// The three run at once (most of their time is spent waiting on servers and retries), each its own test.
const runs = { everyCommand: settled(everyCommand), wrongCredentials: settled(wrongCredentials), echoingServers: settled(echoingServers) };

/** Starts now; the rejection, if any, is reported by the test that awaits it (not as an unhandled one). */
function settled(fn: () => Promise<void>): Promise<void> {
  const p = fn();
  p.catch(() => {});
  return p;
}

test('every command, with and without --debug, against an emulator holding the canaries: no canary anywhere', () => runs.everyCommand);
test('a wrong token (401) on apply and import; wrong cloud key on report; all with --debug: no canary, one clear line', () => runs.wrongCredentials);
test(`servers echoing the canaries (${ECHO_CASES.map((c) => c.name).join('; ')}): plan, apply, import, report with --debug print none of them`, () =>
  runs.echoingServers);

test.run();
