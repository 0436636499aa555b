import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.ts';
import { tmpProject } from './tmp.ts';

export const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

/**
 * Leaves out a `.steward` folder that running steward in examples/ by hand left there (caches, a state file):
 * a copy starts as a fresh clone does.
 */
export const notStewardFolder = (src: string): boolean => basename(src) !== '.steward';

/**
 * Copies examples/<sub> (or all of examples/) to dest with the client rate limit raised from the real
 * services' (100 a minute; 50 through ClickHouse Cloud), so tests do not wait on it (the limiter and the
 * waits have their own tests).
 */
export function copyExample(dest: string, sub?: 'hyperdx' | 'clickstack-cloud', opts: { timeoutSeconds?: number } = {}): void {
  cpSync(sub ? join(EXAMPLES, sub) : EXAMPLES, dest, { recursive: true, filter: notStewardFolder });
  tune(join(dest, 'steward.yaml'), opts);
}

/** The copy's client rate limit raised (unless kept) and its request timeout set, when asked. */
function tune(f: string, opts: { timeoutSeconds?: number; keepRateLimit?: boolean }): void {
  let text = readFileSync(f, 'utf8');
  if (!opts.keepRateLimit) text = text.replace(/requestsPerMinute: \d+/g, 'requestsPerMinute: 6000');
  // A short request timeout keeps the settle window after an unknown outcome short (30 s by default).
  if (opts.timeoutSeconds !== undefined) text = text.replace(/( {2}observability:\n)/, `$1    timeoutSeconds: ${opts.timeoutSeconds}\n`);
  writeFileSync(f, text);
}

/**
 * A copy of examples/ in a temp folder (so state files land there) and a fresh emulator for it. The copy's
 * client rate limit is raised from the real services' so tests do not wait on it (the limiter has its own
 * tests); pass keepRateLimit to keep it.
 */
export async function examplesWithEmulator(
  opts: EmulatorOptions & { keepRateLimit?: boolean; timeoutSeconds?: number } = {},
): Promise<{ dir: string; emu: Emulator; env: Record<string, string>; cleanup: () => Promise<void> }> {
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true, filter: notStewardFolder });
  tune(join(p.dir, 'steward.yaml'), opts);
  const { keepRateLimit: _k, timeoutSeconds: _t, ...emuOpts } = opts;
  const emu = await startEmulator({ seed: 1, ...emuOpts });
  return {
    dir: p.dir,
    emu,
    env: { ...emu.env },
    cleanup: async () => {
      await emu.close();
      p.cleanup();
    },
  };
}
