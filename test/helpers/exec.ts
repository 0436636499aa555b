import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';

export const BIN = fileURLToPath(new URL('../../bin/steward.js', import.meta.url));

/**
 * The XDG_CACHE_HOME every run gets unless the test sets its own: steward keeps its parse-cache key there
 * (src/config/cache.ts), and tests never write outside temp folders. One per test process, removed at exit.
 */
let cacheHome: string | undefined;
function testCacheHome(): string {
  if (!cacheHome) {
    const dir = mkdtempSync(join(tmpdir(), 'steward-xdg-'));
    cacheHome = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return cacheHome;
}

export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ExecOptions {
  cwd?: string;
  env?: Record<string, string>;
  input?: string;
  /** Spawned runs only: kill the child after this long. */
  timeoutMs?: number;
  /** Run the built binary in a child process (signals, exit codes of the process, the launcher itself). */
  spawn?: boolean;
  /** Spawned runs only: the child, as soon as it is started (to signal it). */
  onChild?: (child: ChildProcess) => void;
}

/**
 * Runs steward as a user would, with a minimal environment (no inherited secrets, no colour): in this
 * process through `main(argv, host)` by default (the same code the binary runs, minus node's start-up),
 * or as a child process of the built binary with `spawn: true` or STEWARD_TEST_SPAWN=1.
 */
export async function steward(args: string[], opts: ExecOptions = {}): Promise<ExecResult> {
  if (opts.spawn || process.env['STEWARD_TEST_SPAWN'] === '1') return stewardSpawned(args, opts);
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', XDG_CACHE_HOME: testCacheHome(), ...opts.env },
    cwd: opts.cwd ?? process.cwd(),
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    stdin: Readable.from([opts.input ?? '']),
  });
  return { code, stdout, stderr };
}

/** Runs the built binary in a child process. */
export function stewardSpawned(args: string[], opts: ExecOptions = {}): Promise<ExecResult> {
  return run(process.execPath, [BIN, ...args], {
    ...opts,
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', XDG_CACHE_HOME: testCacheHome(), ...opts.env },
  });
}

/** Runs a command in a child process (killed after `timeoutMs`, 60 s by default) and collects its output. */
export function run(command: string, args: string[], opts: Omit<ExecOptions, 'spawn'> = {}): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    opts.onChild?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}
