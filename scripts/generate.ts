/**
 * Generates from the JSON Schemas in schemas/:
 * - src/schema/types.gen.ts: the TypeScript types of the documents, so they are never written twice;
 * - src/schema/validators/<Kind>.gen.cjs: the ajv validators compiled ahead of time (ajv standalone), which
 *   takes compilation (about 120 ms) and most of ajv out of every start-up; one CommonJS file per kind, so
 *   src/schema/validator.ts loads (synchronously, on first use) only the kinds a run checks;
 * - src/apply/plan-validator.gen.ts: the same for schemas/plan.schema.json (saved plans);
 * - src/clients/response-validators/<name>.gen.cjs: the checks of the services' answers;
 * - src/clients/api-types.ts: the services' shapes, from schemas/api/ (scripts/gen-api-types.ts).
 * `npm run generate` rewrites them all; a test fails when any is out of date.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { compile } from 'json-schema-to-typescript';
import { tileConfigDefs } from './tile-config.ts';
import { generateApiTypes, TYPES_FILE } from './gen-api-types.ts';
import { BASE_ID, ENVELOPES, FILES, loadApiSchema, validatorName, type ResponseShape, type SchemaName } from '../src/clients/response-schemas.ts';

export const KIND_SCHEMAS = {
  Project: 'project.schema.json',
  Dashboard: 'dashboard.schema.json',
  Alert: 'alert.schema.json',
  CloudService: 'cloud-service.schema.json',
  Template: 'template.schema.json',
  TemplateInstance: 'template-instance.schema.json',
} as const;

const root = new URL('../', import.meta.url);

export async function generateTypes(): Promise<string> {
  let out = '/* eslint-disable */\n// Generated from schemas/*.schema.json by `npm run generate`. Do not edit by hand.\n\n';
  for (const [kind, file] of Object.entries(KIND_SCHEMAS)) {
    const schema = JSON.parse(readFileSync(new URL(`schemas/${file}`, root), 'utf8'));
    const ts = await compile(schema, `${kind}Document`, {
      bannerComment: '',
      additionalProperties: false,
      strictIndexSignatures: true,
      cwd: fileURLToPath(new URL('schemas/', root)),
      declareExternallyReferenced: true,
      // bounded arrays (channels: 1-10) would otherwise become unions of tuples, one per length
      maxItems: -1,
      format: true,
      style: { singleQuote: true, printWidth: 120 },
    });
    out += ts + '\n';
  }
  return out;
}

/** The options every validator is compiled with; src/schema/validator.ts relies on verbose errors. */
export const AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true } as const;

/** Where the validator of each kind is written (src/schema/validator.ts reads them from there, the build copies them). */
export const VALIDATORS_DIR = new URL('src/schema/validators/', root);

/**
 * Each kind's validator as a CommonJS file, exporting the kind's name. CommonJS so that it can be loaded when
 * first needed without making validateKind asynchronous: a warm plan checks the project file alone, and the
 * Dashboard validator is 400 KB of the 670 (loading all of them was ~40 ms of every start-up on the 2-core VM).
 */
export function generateValidators(): Record<keyof typeof KIND_SCHEMAS, string> {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true, esm: false, lines: false } });
  (addFormatsModule as unknown as (a: Ajv2020, f: string[]) => void)(ajv, ['uuid']);
  for (const [kind, file] of Object.entries(KIND_SCHEMAS)) ajv.addSchema(JSON.parse(readFileSync(new URL(`schemas/${file}`, root), 'utf8')), kind);
  const out = {} as Record<keyof typeof KIND_SCHEMAS, string>;
  for (const kind of Object.keys(KIND_SCHEMAS) as Array<keyof typeof KIND_SCHEMAS>) out[kind] = commonJsText(ajv, kind, kind, `schemas/${KIND_SCHEMAS[kind]}`);
  return out;
}

/**
 * The saved-plan check of src/apply/plan-file.ts, compiled ahead of time like the others (it was compiled at
 * every `apply FILE`, ~0.1 s), with the options it always had: the first problem only, not strict.
 */
export function generatePlanValidator(): string {
  const ajv = new Ajv2020({ allErrors: false, strict: false, code: { source: true, esm: true, lines: false } });
  ajv.addSchema(JSON.parse(readFileSync(new URL('schemas/plan.schema.json', root), 'utf8')), 'Plan');
  return standaloneText(ajv, { Plan: 'Plan' });
}

/** Where each response check is written (src/clients/validate.ts reads them from there, the build copies them). */
export const RESPONSE_VALIDATORS_DIR = new URL('src/clients/response-validators/', root);

/**
 * src/clients/response-validators/<name>.gen.cjs: the checks of every response shape and schema file
 * (src/clients/response-schemas.ts), with the options the client checks with (every error, strict). One
 * CommonJS file each, loaded when first used (src/shared/generated.ts): a plan needs one or two of the 25.
 */
export function generateResponseValidators(): Record<string, string> {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, validateSchema: false, code: { source: true, esm: false, lines: false } });
  (addFormatsModule as unknown as (a: Ajv2020, f: string[]) => void)(ajv, ['date-time']);
  const refs: Record<string, string> = {};
  for (const name of Object.keys(FILES) as SchemaName[]) {
    ajv.addSchema(loadApiSchema(name));
    refs[validatorName(`file:${name}`)] = BASE_ID + FILES[name];
  }
  for (const [shape, schema] of Object.entries(ENVELOPES) as Array<[ResponseShape, object]>) {
    ajv.addSchema(schema, shape);
    refs[validatorName(shape)] = shape;
  }
  const out: Record<string, string> = {};
  for (const [name, ref] of Object.entries(refs)) out[name] = commonJsText(ajv, name, ref, 'schemas/api/ and src/clients/response-schemas.ts');
  return out;
}

/** One validator as a CommonJS file exporting `name` (ajv standalone). */
function commonJsText(ajv: Ajv2020, name: string, ref: string, from: string): string {
  const standalone = (standaloneModule as unknown as { default: (a: Ajv2020, r: Record<string, string>) => string }).default;
  return `// Generated from ${from} by \`npm run generate\` (ajv standalone). Do not edit by hand.\n${standalone(ajv, { [name]: ref })}\n`;
}

function standaloneText(ajv: Ajv2020, refs: Record<string, string>): string {
  let code = (standaloneModule as unknown as { default: (a: Ajv2020, r: Record<string, string>) => string }).default(ajv, refs);
  // ajv's ESM output still calls require() for its runtime helpers; turn those into imports.
  const imports: string[] = [];
  code = code.replace(/require\("([^"]+)"\)/g, (_m, spec: string) => {
    const name = `__runtime${imports.length}`;
    imports.push(`import ${name} from '${spec}.js';`);
    return name;
  });
  return `// @ts-nocheck\n// Generated from schemas/*.schema.json by \`npm run generate\` (ajv standalone). Do not edit by hand.\n${imports.join('\n')}\n${code.replace(/^"use strict";/, '')}\n`;
}

/** schemas/dashboard.schema.json with its `$defs` (tile config, filters) taken afresh from HyperDX's spec. */
export function dashboardSchemaText(): string {
  const file = new URL('schemas/dashboard.schema.json', root);
  const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  schema['$defs'] = tileConfigDefs(root);
  return JSON.stringify(schema, null, 2) + '\n';
}

/** The folder holds these `<name>.gen.cjs` files and no other. */
function writeAll(dir: URL, files: Record<string, string>): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(new URL(`${name}.gen.cjs`, dir), text);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('schemas/dashboard.schema.json', root), dashboardSchemaText());
  const types = new URL('src/schema/types.gen.ts', root);
  writeFileSync(types, await generateTypes());
  writeAll(VALIDATORS_DIR, generateValidators());
  const planValidator = new URL('src/apply/plan-validator.gen.ts', root);
  writeFileSync(planValidator, generatePlanValidator());
  writeAll(RESPONSE_VALIDATORS_DIR, generateResponseValidators());
  writeFileSync(TYPES_FILE, await generateApiTypes());
  process.stdout.write(
    `wrote ${fileURLToPath(types)}\nwrote ${fileURLToPath(VALIDATORS_DIR)}\nwrote ${fileURLToPath(planValidator)}\nwrote ${fileURLToPath(RESPONSE_VALIDATORS_DIR)}\nwrote ${TYPES_FILE}\n`,
  );
}
