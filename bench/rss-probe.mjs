// Preloaded into benchmarked child processes: reports peak resident memory on exit.
process.on('exit', () => {
  process.stderr.write(`\nSTEWARD_BENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\n`);
});
