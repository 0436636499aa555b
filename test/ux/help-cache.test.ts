/**
 * steward stops yargs from rendering a command's whole help on every run (src/cli/main.ts, skipHelpCache):
 * the rendering happens inside yargs, so this checks yargs' own record of it, and fails if the internal hook
 * moves in a later yargs.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import yargs from 'yargs';
import { skipHelpCache } from '../../src/cli/main.ts';
import { steward } from '../helpers/exec.ts';

type Usage = { hasCachedHelpMessage(): boolean };
const usageOf = (y: unknown) => (y as { getInternalMethods(): { getUsageInstance(): Usage } }).getInternalMethods().getUsageInstance();

async function ran(argv: string[], skip: boolean): Promise<boolean> {
  const parser = yargs()
    .exitProcess(false)
    .command(
      'plan',
      'plan',
      (y) => y.option('out', { type: 'string', describe: 'where' }),
      async () => {},
    );
  if (skip) skipHelpCache(parser, argv);
  await parser.parseAsync(argv, {}, () => {});
  return usageOf(parser).hasCachedHelpMessage();
}

test('yargs renders and keeps the help of every command it runs, unless steward skips it', async () => {
  assert.ok(await ran(['plan', '--out', 'x'], false), 'yargs no longer caches help on its own: skipHelpCache can go');
  assert.not.ok(await ran(['plan', '--out', 'x'], true), 'skipHelpCache no longer reaches yargs');
});

test('help asked for is left to yargs, and still printed whole', async () => {
  const r = await steward(['plan', '--help']);
  assert.is(r.code, 0);
  assert.match(r.stdout, /--out/);
  assert.match(r.stdout, /Options:[^]*--detailed-exitcode/, r.stdout);
});

test('a command that fails after parsing prints its one error line, no help', async () => {
  const r = await steward(['plan', '--concurrency', '0'], { cwd: '/' });
  assert.is(r.code, 1);
  assert.not.match(r.stderr + r.stdout, /Options:|--help/);
});

test.run();
