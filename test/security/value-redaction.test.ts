/**
 * A credential that reaches a plan's values (a second variable holding the same secret, as CI often
 * exposes one; or a server echoing it into a name) is redacted as a value, before a renderer escapes,
 * wraps or cuts it, so no output format shows it whole or in parts (found by an outside review).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeMarkdownHtml } from '../../src/render/escape.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

// Underscores, a dash and a length that makes a long value wrap: each defeated the old text-level redaction.
const TOKEN = 'CANARYtok_9f8e7d6c5b4a_x-1f2e3d4c5b6a';

function pieces(s: string, n = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= s.length; i++) out.push(s.slice(i, i + n));
  return out;
}

function leaked(text: string): string | undefined {
  return pieces(TOKEN).find((p) => text.includes(p)) ?? (text.includes('CANARYtok\\_') ? 'markdown-escaped' : undefined);
}

test('a credential under another variable name: redacted in text, Markdown, GitHub and JSON plans; plan --out refuses to save it', async () => {
  const x = await examplesWithEmulator({ token: TOKEN });
  try {
    const env = { ...x.env, ALIAS_TOK: TOKEN };
    const dash = join(x.dir, 'dashboards/checkout-overview.yaml');
    // A tile name and a long value: Markdown escapes the underscores, text wraps the long one.
    writeFileSync(dash, readFileSync(dash, 'utf8').replace('name: Error count', `name: "Err \${ALIAS_TOK}"`));
    const alert = join(x.dir, 'alerts/checkout.yaml');
    writeFileSync(alert, readFileSync(alert, 'utf8').replace('name: Error count }', `name: "Err \${ALIAS_TOK}" }`));
    for (const format of ['text', 'markdown', 'github', 'json']) {
      const r = await steward(['plan', '--format', format], { cwd: x.dir, env });
      assert.is(r.code, 0, `${format}: ${r.stderr}`);
      assert.is(leaked(r.stdout + r.stderr), undefined, `${format} leaked:\n${r.stdout}`);
      if (format !== 'github') assert.match(r.stdout, /\[redacted\]/, format); // annotations name items, not tiles
    }
    const out = await steward(['plan', '--out', 'plan.json'], { cwd: x.dir, env });
    assert.is(out.code, 1);
    assert.match(out.stderr, /the plan holds the value of a credential variable \(in dashboard checkout-overview\), so it is not saved/);
    assert.is(leaked(out.stdout + out.stderr), undefined);
  } finally {
    await x.cleanup();
  }
});

test("Markdown <summary> keeps steward's own character references whole (no zero-width space inside &#95;)", () => {
  const html = escapeMarkdownHtml('orphan a_b #12');
  assert.ok(html.includes('a&#95;b'), html);
  assert.ok(html.includes('#\u200b12'), 'a reference in user text is still defused');
});

test.run();
