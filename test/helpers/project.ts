import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.ts';
import { tmpProject } from './tmp.ts';

export const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

/** A copy of examples/ in a temp folder (so state files land there) and a fresh emulator for it. */
export async function examplesWithEmulator(opts: EmulatorOptions = {}): Promise<{ dir: string; emu: Emulator; env: Record<string, string>; cleanup: () => Promise<void> }> {
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  const emu = await startEmulator({ seed: 1, ...opts });
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
