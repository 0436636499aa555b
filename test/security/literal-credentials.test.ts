/**
 * A credential whose value reads as a JSON number or literal (`true`, `null`, `1234`): the output sink
 * replaced it wherever it stood, so `--format json` wrote `"asRatio": [redacted]` and whatever read steward's
 * JSON failed on it (red team round 18, left). JSON outputs are now redacted by value: still no credential
 * text in them, and still JSON.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSecretSink } from '../../src/cli/secrets.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { jsonText } from '../../src/render/escape.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const DOC = {
  ok: true,
  silenced: false,
  note: null,
  threshold: 1234,
  ratio: 12.5,
  below: -100,
  text: 'at true 1234 null',
  list: [true, { n: 1234 }],
  '1234': 'key',
};

for (const secret of ['true', 'false', 'null', '1234', '12.5', '-100']) {
  test(`a credential "${secret}": a JSON text stays JSON, with no value or key whose text is the credential`, () => {
    const sink = createSecretSink({ STEWARD_OBS_TOKEN: secret });
    for (const indent of [2, 0]) {
      const text = jsonText(DOC, indent) + '\n';
      const out = sink.redact(text);
      const value = JSON.parse(out) as Record<string, unknown>;
      assert.ok(out.endsWith('\n'), 'the trailing line break kept');
      assert.is(out, jsonText(value, indent) + '\n', 'written as steward writes JSON, its indentation kept');
      // The credential's text nowhere outside "[redacted]".
      assert.not.ok(new RegExp(`(^|[^\\w.-])${secret.replace('.', '\\.')}(?![\\w.])`).test(out), out);
    }
  });
}

test('a text that is no JSON (a plan in text, a message) is redacted as text, as before', () => {
  const sink = createSecretSink({ STEWARD_OBS_TOKEN: 'true' });
  assert.is(sink.redact('silenced: true\n'), 'silenced: [redacted]\n');
  assert.is(sink.redact('{ not json: true'), '{ not json: [redacted]');
  // JSON that stays JSON after the text redaction (inside strings only) is left as that.
  const sink2 = createSecretSink({ STEWARD_OBS_TOKEN: 's3cr3t-value' });
  assert.is(sink2.redact('{"a":"x s3cr3t-value"}'), '{"a":"x [redacted]"}');
});

test('steward plan --format json with an emulator whose token is "true": the output parses', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 5, token: 'true' });
  try {
    copyExample(p.dir, 'hyperdx');
    const env = { ...(emu.env as Record<string, string>), STEWARD_OBS_TOKEN: 'true', XDG_CACHE_HOME: join(p.dir, '.cache') };
    const r = await steward(['plan', '--format', 'json'], { cwd: p.dir, env });
    assert.is(r.code, 0, r.stderr);
    const plan = JSON.parse(r.stdout) as { summary: { create: number } };
    assert.ok(plan.summary.create > 0);
    assert.not.match(r.stdout, /\btrue\b/);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
