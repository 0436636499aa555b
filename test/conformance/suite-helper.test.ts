/**
 * conformanceSuite() itself, on what the seed profile does cleanly against HyperDX 2025-11-21: validate,
 * plan, and import (whose files must validate). The default expectation (every step exits 0, no violation)
 * is what a new profile's conformance run asserts.
 */
import { EXAMPLES } from '../helpers/project.ts';
import { conformanceSuite } from './run.ts';

conformanceSuite('conformance: conformanceSuite() on the seed profile (reads only)', {
  project: EXAMPLES,
  steps: ['validate', 'plan', 'import', 'import-validate'],
  mocks: [{ spec: 'hyperdx-2025-11-21' }],
}).run();
