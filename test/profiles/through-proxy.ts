import { join } from 'node:path';
import { steward, type ExecResult } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';

/**
 * examples/hyperdx copied into `dir` and applied straight to the emulator; then, through a proxy that changes
 * what the server answers, a plan (--detailed-exitcode, no cache) and `import --all --out imported`. The
 * results are the caller's to judge; `env` reaches the emulator directly.
 */
export async function applyThenReadThroughProxy(
  dir: string,
  emuEnv: Record<string, string>,
  proxyUrl: string,
): Promise<{ env: Record<string, string>; apply: ExecResult; plan: ExecResult; imp: ExecResult }> {
  copyExample(dir, 'hyperdx');
  const env = { ...emuEnv, XDG_CACHE_HOME: join(dir, '.cache') };
  const apply = await steward(['apply', '--auto-approve'], { cwd: dir, env });
  const viaProxy = { ...env, STEWARD_OBS_URL: proxyUrl };
  const plan = await steward(['plan', '--detailed-exitcode', '--no-cache'], { cwd: dir, env: viaProxy });
  const imp = await steward(['import', '--all', '--out', 'imported'], { cwd: dir, env: viaProxy });
  return { env, apply, plan, imp };
}
