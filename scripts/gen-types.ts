/**
 * Generates src/schema/types.gen.ts from the JSON Schemas in schemas/, so the TypeScript types of the
 * documents are never written twice. `npm run gen:types` rewrites it; a test fails when it is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

export const KIND_SCHEMAS = {
  Project: 'project.schema.json',
  Dashboard: 'dashboard.schema.json',
  Alert: 'alert.schema.json',
  CloudService: 'cloud-service.schema.json',
} as const;

const root = new URL('../', import.meta.url);

export async function generateTypes(): Promise<string> {
  let out =
    '/* eslint-disable */\n// Generated from schemas/*.schema.json by `npm run gen:types`. Do not edit by hand.\n\n';
  for (const [kind, file] of Object.entries(KIND_SCHEMAS)) {
    const schema = JSON.parse(readFileSync(new URL(`schemas/${file}`, root), 'utf8'));
    const ts = await compile(schema, `${kind}Document`, {
      bannerComment: '',
      additionalProperties: false,
      strictIndexSignatures: true,
      cwd: fileURLToPath(new URL('schemas/', root)),
      declareExternallyReferenced: true,
      format: true,
      style: { singleQuote: true, printWidth: 120 },
    });
    out += ts + '\n';
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = new URL('src/schema/types.gen.ts', root);
  writeFileSync(target, await generateTypes());
  process.stdout.write(`wrote ${fileURLToPath(target)}\n`);
}
