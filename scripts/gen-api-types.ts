/**
 * Generates `src/clients/api-types.ts` from the response and request schemas in `schemas/api/`, so the
 * TypeScript types cannot drift from what ajv checks at run time. `api-types.test.ts` fails when the
 * committed file differs from a fresh generation. `npm run generate` writes it, with the document types.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

export const SCHEMA_FILES = [
  'observability/live-dashboard.schema.json',
  'observability/live-alert.schema.json',
  'observability/dashboard-create.schema.json',
  'observability/alert-update.schema.json',
  'cloud/ingest-pipe.schema.json',
  'cloud/reverse-private-endpoint.schema.json',
  'cloud/backup.schema.json',
] as const;

export const SCHEMA_DIR = fileURLToPath(new URL('../schemas/api/', import.meta.url));
export const TYPES_FILE = fileURLToPath(new URL('../src/clients/api-types.ts', import.meta.url));

const BANNER = `/* eslint-disable */
/**
 * GENERATED from the JSON Schemas in schemas/api/ by scripts/gen-api-types.ts: do not edit by hand.
 * Regenerate with \`npm run generate\`; test/clients/api-types.test.ts checks
 * that this file matches the schemas.
 */
`;

export async function generateApiTypes(): Promise<string> {
  const parts: string[] = [];
  for (const file of SCHEMA_FILES) {
    const schema = JSON.parse(readFileSync(SCHEMA_DIR + file, 'utf8')) as { title: string };
    const ts = await compile(schema as never, schema.title, {
      bannerComment: `// ${file}`,
      additionalProperties: true,
      unreachableDefinitions: true,
      declareExternallyReferenced: true,
      format: true,
      style: { printWidth: 120, singleQuote: true },
      cwd: SCHEMA_DIR,
    });
    parts.push(ts.trim());
  }
  return `${BANNER}\n${parts.join('\n\n')}\n`;
}
