import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { schemaModelinePath } from '../../src/shared/paths.ts';

// init wrote the installation's absolute path for a project outside it, import a relative one climbing out of
// the project (`../../../../opt/steward/schemas/…`), so one project's files pointed at its schemas two ways.
test('schemaModelinePath: relative only when steward is installed inside the project, else absolute', () => {
  const cases: [schema: string, fileDir: string, project: string, want: string][] = [
    ['/opt/steward/schemas/dashboard.schema.json', '/home/me/obs/dashboards', '/home/me/obs', '/opt/steward/schemas/dashboard.schema.json'],
    ['/opt/steward/schemas/', '/home/me/obs', '/home/me/obs', '/opt/steward/schemas'],
    ['/home/me/obs/node_modules/steward/schemas/alert.schema.json', '/home/me/obs/alerts', '/home/me/obs', '../node_modules/steward/schemas/alert.schema.json'],
    ['/home/me/obs/node_modules/steward/schemas/', '/home/me/obs', '/home/me/obs', 'node_modules/steward/schemas'],
    ['/home/me/obs-other/schemas/x.json', '/home/me/obs', '/home/me/obs', '/home/me/obs-other/schemas/x.json'],
  ];
  for (const [schema, fileDir, project, want] of cases) assert.is(schemaModelinePath(schema, fileDir, project), want, `${schema} from ${fileDir}`);
});

test.run();
