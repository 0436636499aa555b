import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync } from 'node:fs';
import { checkArgv, closest } from '../../src/cli/argv.ts';
import { colorWanted } from '../../src/cli/main.ts';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

// Issue 14, point 3: Terraform habits and typos get a did-you-mean, not "Unknown arguments: a, u, t, o".

// --config and --env are global, but init, show, emulator and demo read no project: they took them and
// did nothing (`show plan.json --env prod` printed the plan as if nothing were asked).
for (const [args, says] of [
  [['show', 'plan.json', '--env', 'prod'], '--env: steward show reads no project file, so it has no effect here; remove it'],
  [['init', 'x', '--config', 'a.yaml'], '--config: steward init reads no project file'],
  [['emulator', '--config', 'a.yaml', '--env', 'prod'], '--config and --env: steward emulator reads no project file, so they have no effect here; remove them'],
  [['demo', '--env', 'prod'], '--env: steward demo reads no project file'],
] as const) {
  test(`steward ${args.join(' ')}: refused in one line, nothing done`, async () => {
    const p = tmpProject({});
    try {
      const r = await steward([...args], { cwd: p.dir });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, says);
      assert.is(r.stdout, '');
    } finally {
      p.cleanup();
    }
  });
}

test('a mistyped command: did you mean', async () => {
  const r = await steward(['paln']);
  assert.is(r.code, 1);
  assert.is(r.stderr, 'error: unknown command "paln"; did you mean plan? See steward --help\n');
  const far = await steward(['xyzzy']);
  assert.match(far.stderr, 'unknown command "xyzzy"; the commands are: init, validate, plan, apply');
});

test('a mistyped flag: one message naming what was written and the nearest flag, no camelCase twin', async () => {
  const r = await steward(['plan', '--detailed-exitcodes']);
  assert.is(r.code, 1);
  assert.is(r.stderr, 'error: unknown option --detailed-exitcodes; did you mean --detailed-exitcode? See steward plan --help\n');
  assert.not.match(r.stderr, 'detailedExitcodes');
  const colour = await steward(['validate', '--no-colour']);
  assert.match(colour.stderr, 'unknown option --no-colour; did you mean --no-color?');
  const none = await steward(['validate', '--zzzzzzzz']);
  assert.is(none.stderr, 'error: unknown option --zzzzzzzz. See steward validate --help\n');
  // a flag of another command is still unknown to this one
  const other = await steward(['validate', '--auto-approve']);
  assert.match(other.stderr, 'unknown option --auto-approve');
});

test('Terraform-style single-dash long flags are accepted; unknown ones are explained', async () => {
  assert.equal(checkArgv(['apply', '-auto-approve'], table()), { ok: true, argv: ['apply', '--auto-approve'] });
  assert.equal(checkArgv(['plan', '-out=plan.json', '-detailed-exitcode'], table()), { ok: true, argv: ['plan', '--out=plan.json', '--detailed-exitcode'] });
  // values and everything after -- are left alone
  assert.equal(checkArgv(['plan', '--out', '-weird', '--', '-auto-approve'], table()), { ok: true, argv: ['plan', '--out', '-weird', '--', '-auto-approve'] });
  const bad = checkArgv(['apply', '-auto-aprove'], table());
  assert.equal(bad, { ok: false, message: 'unknown option -auto-aprove; did you mean --auto-approve? See steward apply --help' });

  // end to end: -auto-approve gets past the parser (it then needs a project, which this folder lacks)
  const p = tmpProject({});
  try {
    const r = await steward(['apply', '-auto-approve'], { cwd: p.dir });
    assert.is(r.code, 1);
    assert.not.match(r.stderr, /Unknown argument|unknown option/);
    assert.match(r.stderr, 'steward.yaml');
    const v = await steward(['validate', '-format=json', '-no-cache'], { cwd: p.dir });
    assert.not.match(v.stderr + v.stdout, /unknown option/);
  } finally {
    p.cleanup();
  }
});

test('Terraform habits: `steward help plan` is plan --help, `steward version` is --version', async () => {
  const help = await steward(['help', 'plan']);
  assert.is(help.code, 0, help.stderr);
  assert.match(help.stdout, 'steward plan [paths..]');
  const top = await steward(['help']);
  assert.is(top.code, 0, top.stderr);
  assert.match(top.stdout, 'steward <command>');
  const v = await steward(['version']);
  assert.is(v.code, 0, v.stderr);
  assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
});

test('closest: typos within reach, prefixes, nothing for far words', () => {
  assert.is(closest('aply', ['validate', 'plan', 'apply']), 'apply');
  assert.is(closest('detailed', ['detailed-exitcode', 'debug']), 'detailed-exitcode');
  assert.is(closest('zzzz', ['plan', 'apply']), undefined);
});

test('--concurrency abc is refused, not taken as NaN; out of range, with the range', async () => {
  const p = tmpProject({ 'steward.yaml': 'apiVersion: steward/v1\nkind: Project\n' });
  try {
    for (const cmd of ['plan', 'apply']) {
      const r = await steward([cmd, '--concurrency', 'abc'], { cwd: p.dir });
      assert.is(r.code, 1, cmd);
      assert.match(r.stderr, `--concurrency takes a decimal number, not "abc". See steward ${cmd} --help`, cmd);
      const range = await steward([cmd, '--concurrency', '65'], { cwd: p.dir });
      assert.is(range.code, 1, cmd);
      assert.match(range.stderr, '--concurrency must be a whole number from 1 to 64', cmd);
    }
  } finally {
    p.cleanup();
  }
});

// yargs reads a number option's text as Number() does: `--concurrency 0x10` ran at 16, ` 4` at 4, `1e1` at 10.
test('a number option written other than in decimal is refused in one line, in every form it can be written', () => {
  const t = {
    ...table(),
    commands: { ...table().commands, plan: { names: ['out', 'concurrency'], takesValue: ['out', 'concurrency'], booleans: [], numbers: ['concurrency'] } },
  };
  for (const value of ['0x10', '0X10', '0b11', '0o7', '1e1', ' 4', '4 ', 'Infinity', '+4', '4_0', '１６']) {
    const message = `--concurrency takes a decimal number, not ${JSON.stringify(value)}. See steward plan --help`;
    assert.equal(checkArgv(['plan', '--concurrency', value], t), { ok: false, message }, `space: ${value}`);
    assert.equal(checkArgv(['plan', `--concurrency=${value}`], t), { ok: false, message }, `=: ${value}`);
    assert.equal(checkArgv(['plan', `-concurrency=${value}`], t), { ok: false, message }, `one dash: ${value}`);
  }
  assert.equal(checkArgv(['plan', '--concurrency', '-0x1'], t), {
    ok: false,
    message: '--concurrency takes a decimal number, not "-0x1". See steward plan --help',
  });
  // Decimal is the option's own check's to judge (a range, a whole number).
  for (const value of ['4', '16', '4.0', '0.5', '.5', '-1', '0']) assert.equal(checkArgv(['plan', '--concurrency', value], t).ok, true, value);
  // Not a number option: any text, as before.
  assert.equal(checkArgv(['plan', '--out', '0x10'], t), { ok: true, argv: ['plan', '--out', '0x10'] });
});

test('every command refuses a hexadecimal number option (the real option table)', async () => {
  const p = tmpProject({ 'steward.yaml': 'apiVersion: steward/v1\nkind: Project\n' });
  try {
    for (const args of [
      ['plan', '--concurrency', '0x10'],
      ['apply', '--concurrency=0x10'],
      ['report', '--concurrency', '0x10'],
      ['emulator', '--port', '0x1F90'],
      ['emulator', '--latency', '1e1'],
    ]) {
      const r = await steward(args, { cwd: p.dir });
      assert.is(r.code, 1, args.join(' '));
      assert.match(r.stderr, /takes a decimal number, not "(0x10|0x1F90|1e1)"/, args.join(' '));
      assert.is(r.stdout, '', args.join(' '));
    }
  } finally {
    p.cleanup();
  }
});

test('colour: --color and FORCE_COLOR force it without a terminal; --no-color and NO_COLOR turn it off; flags win', async () => {
  assert.is(colorWanted([], {}, false), false);
  assert.is(colorWanted([], {}, true), true);
  assert.is(colorWanted([], { TERM: 'dumb' }, true), false);
  assert.is(colorWanted(['--color'], {}, false), true);
  assert.is(colorWanted([], { FORCE_COLOR: '1' }, false), true);
  assert.is(colorWanted([], { FORCE_COLOR: '1', NO_COLOR: '1' }, false), true);
  assert.is(colorWanted([], { FORCE_COLOR: '0' }, true), false);
  assert.is(colorWanted([], { NO_COLOR: '1' }, true), false);
  assert.is(colorWanted(['--no-color'], { FORCE_COLOR: '1' }, true), false);
  assert.is(colorWanted(['--no-color', '--color'], {}, false), true);

  // end to end, in a copy of the examples (nothing written into examples/)
  const p = tmpProject({});
  try {
    cpSync(EXAMPLES, p.dir, { recursive: true });
    const forced = await steward(['validate', '--no-cache'], { cwd: p.dir, env: { FORCE_COLOR: '1', NO_COLOR: '' } });
    assert.match(forced.stdout, '\u001b[');
    const flag = await steward(['validate', '--no-cache', '--color'], { cwd: p.dir });
    assert.match(flag.stdout, '\u001b[');
    const off = await steward(['validate', '--no-cache', '--no-color'], { cwd: p.dir, env: { FORCE_COLOR: '1' } });
    assert.not.match(off.stdout, '\u001b[');
  } finally {
    p.cleanup();
  }
});

test("the top-level help lists every exit code, report --fail-on's 2 included", async () => {
  const r = await steward(['--help']);
  assert.is(r.code, 0);
  assert.match(r.stdout, 'plan --detailed-exitcode: 2 changes pending, 3 blocked drift');
  assert.match(r.stdout, 'report --fail-on: 2 findings reach that severity');
});

test('an option that takes a value, written without one, is a usage error, not silently empty', async () => {
  // GIVEN `plan --out --detailed-exitcode` (a forgotten file name) WHEN checked THEN --out is named, and the
  // next flag is not swallowed as its value: before, no plan was saved and the run exited as if it had been
  assert.equal(checkArgv(['plan', '--out', '--detailed-exitcode'], table()), {
    ok: false,
    message: '--out needs a value. See steward plan --help',
  });
  assert.equal(checkArgv(['validate', '--config'], table()), { ok: false, message: '--config needs a value. See steward validate --help' });
  assert.equal(checkArgv(['plan', '--env', '--', 'x'], table()), { ok: false, message: '--env needs a value. See steward plan --help' });
  // a value that starts with one dash is still a value; --name=value is never checked here
  assert.equal(checkArgv(['plan', '--out', '-'], table()), { ok: true, argv: ['plan', '--out', '-'] });
  // an empty value (an unset CI variable) is refused, written either way: `plan --out=` saved no plan and exited 0
  assert.equal(checkArgv(['plan', '--out=', '--detailed-exitcode'], table()), {
    ok: false,
    message: '--out is empty (an unset variable?); give it a value. See steward plan --help',
  });
  assert.equal(checkArgv(['plan', '--out', ''], table()), {
    ok: false,
    message: '--out is empty (an unset variable?); give it a value. See steward plan --help',
  });
  assert.equal(checkArgv(['--config=', 'validate'], table()), {
    ok: false,
    message: '--config is empty (an unset variable?); give it a value. See steward --help',
  });
  const r = await steward(['validate', '--config']);
  assert.is(r.code, 1);
  assert.is(r.stderr, 'error: --config needs a value. See steward validate --help\n');
});

test('an empty value or plan file name (an unset CI variable) is refused before anything is read or sent', async () => {
  // Red team, round 14: `plan --out="$PLAN"` with PLAN unset saved no plan and exited 0 (the apply job then had
  // no file); `--config=` searched for steward.yaml as if none was named; `apply --auto-approve "$PLAN"` read
  // the empty name as no plan file, planned afresh and applied what nobody reviewed.
  const p = tmpProject({});
  try {
    for (const [args, message] of [
      [['plan', '--out='], '--out is empty (an unset variable?); give it a value. See steward plan --help'],
      [['validate', '--config', ''], '--config is empty (an unset variable?); give it a value. See steward validate --help'],
      [['report', '--out='], '--out is empty (an unset variable?); give it a value. See steward report --help'],
      [['apply', '--auto-approve', ''], 'the plan file name is empty (an unset variable?): name the file `steward plan --out` saved, or give none'],
    ] as const) {
      const r = await steward([...args], { cwd: p.dir });
      assert.is(r.code, 1, args.join(' '));
      assert.is(r.stderr, `error: ${message}\n`, args.join(' '));
      assert.is(r.stdout, '', args.join(' '));
    }
  } finally {
    p.cleanup();
  }
});

test("yargs' own refusals read as one line naming the option, not a literal \\n", async () => {
  const bad = await steward(['plan', '--format', 'xml']);
  assert.is(bad.code, 1);
  assert.is(bad.stderr, 'error: --format must be one of text, json, markdown, github; got "xml". See steward plan --help\n');
  const missing = await steward(['show']);
  assert.is(missing.code, 1);
  assert.is(missing.stderr, 'error: missing argument: steward show <plan>. See steward show --help\n');
  const extra = await steward(['apply', 'a.json', 'b.json']);
  assert.is(extra.code, 1);
  assert.is(extra.stderr, 'error: unexpected argument "b.json". See steward apply --help\n');
});

test('apply with a saved plan refuses each flag that would shape a new plan, naming only the ones given', async () => {
  // --prune and --allow-empty were taken and ignored (the plan's own deletes ran, or none), and --target alone
  // was reported as "--reassert-alerts and --target".
  const cases: [string[], string][] = [
    [['--target', 'dashboard/x'], '--target shapes a new plan; with a saved plan, pass it to `steward plan`'],
    [['--prune'], '--prune shapes a new plan; with a saved plan, pass it to `steward plan`'],
    [['--no-prune'], '--no-prune shapes a new plan; with a saved plan, pass it to `steward plan`'],
    [['--allow-empty'], '--allow-empty shapes a new plan; with a saved plan, pass it to `steward plan`'],
    [['--reassert-alerts', '--prune'], '--reassert-alerts, --prune shape a new plan; with a saved plan, pass them to `steward plan`'],
  ];
  for (const [flags, message] of cases) {
    const r = await steward(['apply', 'plan.json', ...flags]);
    assert.is(r.code, 1, flags.join(' '));
    assert.is(r.stderr, `error: ${message}\n`, flags.join(' '));
  }
});

test('an option that takes one value, given twice, is refused in one line: never an internal error, never the last silently', async () => {
  // Red team, round 14: yargs made an array of a repeated string option. `--config a --config b`, `--out a
  // --out b` and `import --template a --template b` stopped with "internal error: The "paths[1]" argument must
  // be of type string", `--env a --env b` with "word.toLowerCase is not a function", and `--format json
  // --format text` printed text as if json had never been asked.
  const cases: [string[], string][] = [
    [
      ['validate', '--config', 'steward.yaml', '--config', 'steward.yaml'],
      '--config is given 2 times; it takes one value, give it once. See steward validate --help',
    ],
    [['--config', 'a.yaml', 'validate', '--config=b.yaml'], '--config is given 2 times; it takes one value, give it once. See steward validate --help'],
    [['plan', '--env', 'staging', '--env=prod'], '--env is given 2 times; it takes one value, give it once. See steward plan --help'],
    [['plan', '--out', 'a.json', '-out=b.json'], '--out is given 2 times; it takes one value, give it once. See steward plan --help'],
    [
      ['plan', '--format', 'json', '--format', 'text', '--format', 'json'],
      '--format is given 3 times; it takes one value, give it once. See steward plan --help',
    ],
    [['report', '--out', 'r1', '--out', 'r2'], '--out is given 2 times; it takes one value, give it once. See steward report --help'],
    [['import', '--template', 'a.json', '--template', 'b.json'], '--template is given 2 times; it takes one value, give it once. See steward import --help'],
    [['emulator', '--port', '0', '--port', '1'], '--port is given 2 times; it takes one value, give it once. See steward emulator --help'],
  ];
  const p = tmpProject({});
  try {
    for (const [args, message] of cases) {
      const r = await steward(args, { cwd: p.dir });
      assert.is(r.code, 1, args.join(' '));
      assert.is(r.stderr, `error: ${message}\n`, args.join(' '));
      assert.is(r.stdout, '', args.join(' '));
    }
  } finally {
    p.cleanup();
  }
  // What may repeat still does: --target, and the booleans (the last of --prune / --no-prune wins).
  const t = {
    ...table(),
    commands: { ...table().commands, plan: { names: ['out', 'target', 'prune'], takesValue: ['out', 'target'], booleans: ['prune'], repeatable: ['target'] } },
  };
  assert.equal(checkArgv(['plan', '--target', 'a/b', '--target=c/d', '--prune', '--no-prune'], t), {
    ok: true,
    argv: ['plan', '--target', 'a/b', '--target=c/d', '--prune', '--no-prune'],
  });
  // Everything after -- is not an option.
  assert.equal(checkArgv(['plan', '--out', 'a.json', '--', '--out', 'b.json'], table()).ok, true);
});

function table() {
  const bool = (names: string[]) => ({ names, booleans: names, takesValue: [] });
  return {
    global: { names: ['config', 'env', 'color', 'debug', 'help', 'version'], takesValue: ['config', 'env'], booleans: ['color', 'debug', 'help', 'version'] },
    commands: {
      plan: { names: ['out', 'detailed-exitcode'], takesValue: ['out'], booleans: ['detailed-exitcode'] },
      apply: bool(['auto-approve']),
      validate: { names: ['format', 'cache'], takesValue: ['format'], booleans: ['cache'] },
    },
  };
}

test.run();
