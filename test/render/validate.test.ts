import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Issue } from '../../src/errors.ts';
import { renderValidate } from '../../src/render/validate.ts';
import { assertGolden } from '../helpers/golden.ts';

const issues: Issue[] = [
  { file: 'alerts/b.yaml', line: 9, col: 3, pointer: '/spec/thresold', message: 'unknown key "thresold"; did you mean "threshold"?', severity: 'error' },
  { file: 'alerts/a.yaml', line: 12, col: 22, pointer: '/spec/tile/dashboard', message: 'unknown dashboard "shpo"', severity: 'error' },
  { file: 'dash/x.yaml', line: 7, col: 26, pointer: '/spec/tiles/0/w', message: 'tile "T" ends at column 30, beyond the 24-column grid', severity: 'warning' },
  { file: 'a,b:c.yaml', line: 1, col: 1, pointer: '', message: 'line one\nline 100% two', severity: 'error' },
];
const counts = { dashboard: 3, alert: 1, 'cloud service': 1 };

for (const format of ['text', 'json', 'github'] as const) {
  test(`invalid, ${format}`, () => {
    assertGolden(renderValidate({ files: 6, counts, issues }, format, { color: false }), `render/validate-invalid.${format}.txt`);
  });
}

test('valid, text', () => {
  assertGolden(renderValidate({ files: 8, counts, issues: [] }, 'text', { color: false }), 'render/validate-valid.text.txt');
});

test('colour only when asked', () => {
  assert.not.match(renderValidate({ files: 1, counts, issues }, 'text', { color: false }), '\u001b[');
  assert.match(renderValidate({ files: 1, counts, issues }, 'text', { color: true }), '\u001b[31m');
});

test.run();
