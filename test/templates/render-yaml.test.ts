/**
 * What `steward render` prints (src/templates/render-yaml.ts) loads back as the very values rendered: a
 * literal `${` (written `$${` in the instance) is printed as `$${`, never as a reference a later load would
 * read from the environment.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processFile } from '../../src/config/resources.ts';
import { renderResourcesYaml } from '../../src/templates/render-yaml.ts';

test('render: printed YAML reads back as the same values, a literal ${ included', () => {
  const file = '/p/services/x.yaml';
  const source = `apiVersion: steward/v1
kind: Dashboard
metadata:
  name: d
spec:
  name: "costs $\${CURRENCY} and $$\${X} stay literal"
  tags: ["a$\${B}"]
  tiles: []
`;
  const loaded = processFile(file, Buffer.from(source), { GITHUB_TOKEN: 'ghs_secretsecret1234' }, { isProjectFile: false });
  assert.equal(loaded.issues, []);
  const doc = loaded.resources[0]!.doc as { spec: { name: string; tags: string[] } };
  assert.is(doc.spec.name, 'costs ${CURRENCY} and $${X} stay literal');
  const printed = renderResourcesYaml(loaded.resources, (f) => f);
  assert.ok(printed.includes('costs $${CURRENCY} and $$${X} stay literal'), printed);
  // Loaded again with the variables set: nothing is read from the environment, the values are the same.
  const again = processFile(file, Buffer.from(printed), { CURRENCY: 'EUR', X: 'x', B: 'b' }, { isProjectFile: false });
  assert.equal(again.issues, []);
  assert.equal(again.resources[0]!.doc, loaded.resources[0]!.doc);
});

test.run();
