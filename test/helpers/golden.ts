import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';

const fixtures = new URL('../fixtures/', import.meta.url);

/** Compares with test/fixtures/<rel>; UPDATE_GOLDEN=1 rewrites the file instead. */
export function assertGolden(actual: string, rel: string): void {
  const path = fileURLToPath(new URL(rel, fixtures));
  if (process.env['UPDATE_GOLDEN'] === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`golden file ${rel} is missing: run UPDATE_GOLDEN=1 npm run test:unit and review it`);
  }
  assert.fixture(actual, expected);
}
