import { Document } from 'yaml';
import { escapeInterpolation } from '../config/interpolate.ts';
import type { AnyResource } from '../model/resource.ts';
import { escapeTerminal } from '../render/escape.ts';
import { templateOf } from './fan-out.ts';
import { yamlText } from '../render/yaml-text.ts';

/**
 * Resources as a multi-document YAML stream, each with a comment saying where it came from: what
 * `steward render` prints; saved as a file, it loads as the same values. Pure. Stamped resources (negative
 * index) name their instance file and template.
 */
export function renderResourcesYaml(resources: readonly AnyResource[], rel: (file: string) => string): string {
  if (resources.length === 0) return '# nothing to render: no TemplateInstance stamps anything here (--all prints every resource)\n';
  return resources
    .map((r) => {
      const from = r.index < 0 ? `# ${r.name}: stamped by ${rel(r.file)} from template ${templateOf(r.name) ?? '?'}` : `# ${r.name}: ${rel(r.file)}`;
      // The comment holds a path of the user's: escaped for the terminal (yaml writes control characters as escapes).
      // A literal `${` (written `$${` in a file) is printed as `$${`: the YAML reads back as these very values,
      // never as a reference to a variable (import writes files the same way).
      return `---\n${escapeTerminal(from)}\n${yamlText(new Document(escapeInterpolation(r.doc)))}`;
    })
    .join('');
}
