/**
 * Files shipped beside the code (package.json, schemas/, examples/), for every module that reads one.
 *
 * The code runs from three trees: src/ (tests, through tsx), dist/ (tsc's output) and dist/bundle/ (what
 * bin/steward.js loads: esbuild's chunks, all in one folder, see scripts/build.ts). Each module sits exactly
 * two folders below the package's root in all three, so this one relative URL holds wherever the module
 * lands; a path written relative to a deeper module (`../../../schemas` from src/cli/commands/) would not.
 */
export const PACKAGE_ROOT = new URL('../../', import.meta.url);

/** A file or folder of the package, by its path from the package's root (`schemas/alert.schema.json`). */
export function packageFile(path: string): URL {
  return new URL(path, PACKAGE_ROOT);
}
