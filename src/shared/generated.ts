import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { CliError } from '../errors.ts';

const load = createRequire(import.meta.url);

/**
 * The exports of generated CommonJS files (scripts/generate.ts writes `<dir>/<name>.gen.cjs`, each exporting
 * `name`), each loaded the first time it is asked for. The ajv validators are generated code of 100-400 KB a
 * schema, and a run needs a few of them: loading them all was ~40-50 ms of every start-up on the 2-core VM.
 * CommonJS so that the load is synchronous and the checks stay plain functions. `dir` is a folder beside the
 * caller's module: the build copies the files to dist/ and dist/bundle/ (scripts/build.ts). A name not in
 * `names` is refused before it becomes a path.
 */
export function lazyGenerated<T>(dir: URL, names: readonly string[]): (name: string) => T {
  const loaded = new Map<string, T>();
  return (name) => {
    let v = loaded.get(name);
    if (v === undefined) {
      if (!names.includes(name)) throw new Error(`no generated code named ${JSON.stringify(name)}: run npm run generate`);
      const file = fileURLToPath(new URL(`${name}.gen.cjs`, dir));
      try {
        v = (load(file) as Record<string, T | undefined>)[name];
      } catch (e) {
        // A copy of steward without its generated files (a package unpacked in part, a checkout not built):
        // said as such, not as a bug with a require stack.
        if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !String((e as Error).message).includes(file)) throw e;
        throw new CliError(`this installation of steward lacks ${file}, generated code it loads when needed: reinstall steward (in a checkout: npm run build)`);
      }
      if (v === undefined) throw new Error(`${name}.gen.cjs does not export ${name}: run npm run generate`);
      loaded.set(name, v);
    }
    return v;
  };
}
