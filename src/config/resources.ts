import type { Issue } from '../errors.ts';
import type { AnyResource } from '../model/resource.ts';
import { ALL_KINDS, type DocumentOf, type Kind, type ResourceKind } from '../schema/kinds.ts';
import { suggestKind, validateKind } from '../schema/validator.ts';
import { variablePolicy, type VariablePolicy } from './credentials.ts';
import { interpolateDocument, interpolationBudget, type Env } from './interpolate.ts';
import { fastLoadAll } from './fast-parse.ts';
import { mayFormReference, mayHoldHalfCharacter, mayHoldReference } from './reference-scan.ts';
import { pointerSegments } from '../shared/pointer.ts';
import { conversionErrorOffset, issueAt, locate, MAX_FILE_BYTES, parseYamlFile, type SourceDoc } from './source.ts';
import { pushAll } from '../shared/arrays.ts';

export interface ProjectDocument {
  file: string;
  index: number;
  doc: DocumentOf<'Project'>;
  src: SourceDoc;
}

export interface FileResult {
  file: string;
  resources: AnyResource[];
  projects: ProjectDocument[];
  issues: Issue[];
}

/**
 * Connection settings are interpolated when a command connects, so `validate` needs nothing set. The
 * project's name is never: it makes the default marker tag, which must read the same on every runner, so
 * `${...}` there is left as written, and the name's pattern (lowercase, digits, . _ -) refuses it at its line.
 */
const isConnectionPath = (path: readonly (string | number)[]) =>
  (path[0] === 'metadata' && path[1] === 'name') ||
  (path[0] === 'spec' &&
    (path[1] === 'observability' || path[1] === 'cloud' || (path[1] === 'environments' && (path[3] === 'observability' || path[3] === 'cloud'))));

/**
 * Reads one file's documents: parse, interpolate, check against the schema of each document's kind.
 * Never throws for bad input; returns what is valid and every problem with its position.
 */
export function processFile(
  file: string,
  bytes: Uint8Array,
  env: Env,
  opts: { isProjectFile: boolean; variables?: VariablePolicy; fast?: boolean },
): FileResult {
  // Most files are plain and valid: the line reader or js-yaml reads them without positions. Anything else (a problem, a
  // "${VAR}", a form the fast path is not sure of) is read below with `yaml`, positions and all.
  if (opts.fast !== false && !opts.isProjectFile && !mayFormReference(bytes)) {
    const fast = fastProcessFile(file, bytes);
    if (fast) return fast;
  }
  const parsed = parseYamlFile(file, bytes);
  const out: FileResult = { file, resources: [], projects: [], issues: [...parsed.issues] };
  if (parsed.issues.some((i) => i.severity === 'error')) return out;

  let sawDocument = false;
  const expand = mayHoldReference(bytes);
  const halves = mayHoldHalfCharacter(bytes);
  // Variables that hold credentials may not be read outside the connection settings: the ones the loader
  // passes (from the project file), the defaults, and those this file's own Project document names; and
  // when the project sets a prefix, resource documents read only variables with it, and without one no
  // variable whose name says it holds a secret (the Project document, which is trusted, is held to neither;
  // see credentials.ts).
  const policy = opts.variables ?? variablePolicy(undefined);
  const rule: { deny: Set<string>; allowPrefix?: string; secretNames: true } = {
    deny: new Set(policy.deny),
    secretNames: true,
    ...(policy.allowPrefix !== undefined ? { allowPrefix: policy.allowPrefix } : {}),
  };
  if (expand && opts.isProjectFile) {
    for (const src of parsed.docs) {
      if (!isProject(src)) continue;
      try {
        const own = variablePolicy((src.doc.toJS({ maxAliasCount: 100 }) as { spec?: unknown } | null)?.spec);
        for (const n of own.deny) rule.deny.add(n);
        if (own.allowPrefix !== undefined) rule.allowPrefix = own.allowPrefix;
      } catch {
        // Reported below when the document is converted.
      }
    }
  }
  const budget = interpolationBudget();
  for (const src of parsed.docs) {
    const isProjectDoc = isProject(src);
    const unresolved = expand
      ? interpolateDocument(src, env, isProjectDoc ? isConnectionPath : undefined, isProjectDoc ? { deny: rule.deny, project: true } : rule, budget)
      : [];
    let value: unknown;
    try {
      value = src.doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      out.issues.push(issueAt(file, src.lineCounter, conversionErrorOffset(src.doc), '', `YAML: ${e instanceof Error ? e.message : String(e)}`));
      continue;
    }
    if (value === null || value === undefined) continue; // an empty document between `---` separators
    sawDocument = true;
    const at = (pointer: string, message: string, atKey = false): Issue => ({
      file,
      ...locate(src, pointerSegments(pointer), { key: atKey }),
      pointer,
      message,
      severity: 'error',
    });
    if (typeof value !== 'object' || Array.isArray(value)) {
      out.issues.push(
        at(
          '',
          `expected a mapping with apiVersion, kind, metadata and spec; found ${Array.isArray(value) ? 'a list' : `${typeof value} (${String(value).length} characters; the text is not shown)`}`,
        ),
      );
      continue;
    }
    const kind = (value as { kind?: unknown }).kind;
    if (kind === undefined) {
      // Not a steward document (a CI workflow in a folder given on the command line): its "${{ ... }}" are
      // not ours to judge, and one problem per expression would bury the one that matters.
      out.issues.push(at('', `missing required key "kind" (one of ${ALL_KINDS.join(', ')})`));
      continue;
    }
    pushAll(out.issues, unresolved);
    if (typeof kind !== 'string' || !(ALL_KINDS as readonly string[]).includes(kind)) {
      const hint = typeof kind === 'string' ? suggestKind(kind) : undefined;
      out.issues.push(at('/kind', `unknown kind ${JSON.stringify(kind)}: must be one of ${ALL_KINDS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`));
      continue;
    }
    if (kind === 'Project' && !opts.isProjectFile) {
      out.issues.push(at('/kind', 'a Project document belongs in the project file (steward.yaml), not among the resources'));
      continue;
    }
    // A value left as "${VAR}" is already reported; its type error would only repeat it.
    const problems = validateKind(kind as Kind, value, { halves }).filter((p) => !unresolved.some((u) => u.pointer === p.pointer));
    for (const p of problems) out.issues.push(at(p.pointer, p.message, p.atKey));
    if (problems.length > 0 || unresolved.length > 0) continue;
    if (kind === 'Project') {
      out.projects.push({ file, index: src.index, doc: value as DocumentOf<'Project'>, src });
    } else {
      const doc = value as DocumentOf<ResourceKind>;
      out.resources.push({ kind, name: doc.metadata.name, file, index: src.index, doc } as AnyResource);
    }
  }
  if (!sawDocument && out.issues.length === 0) {
    out.issues.push({
      file,
      line: 1,
      col: 1,
      pointer: '',
      message: 'file has no documents: expected at least one with apiVersion, kind, metadata and spec',
      severity: 'error',
    });
  }
  return out;
}

/**
 * The fast path: the file's resources when js-yaml reads it exactly as `yaml` would (see fast-parse.ts) and
 * every document is a valid resource; undefined on anything else, so every problem is found, with its
 * position, by the `yaml` path.
 */
export function fastProcessFile(file: string, bytes: Uint8Array): FileResult | undefined {
  if (bytes.byteLength > MAX_FILE_BYTES) return undefined;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\u0000')) return undefined;
  const docs = fastLoadAll(text);
  if (!docs) return undefined;
  const halves = mayHoldHalfCharacter(bytes);
  const resources: AnyResource[] = [];
  for (const [index, value] of docs.entries()) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const kind = (value as { kind?: unknown }).kind;
    if (typeof kind !== 'string' || kind === 'Project' || !(ALL_KINDS as readonly string[]).includes(kind)) return undefined;
    if (validateKind(kind as Kind, value, { halves }).length > 0) return undefined;
    const doc = value as DocumentOf<ResourceKind>;
    resources.push({ kind, name: doc.metadata.name, file, index, doc } as AnyResource);
  }
  return { file, resources, projects: [], issues: [] };
}

/** Strict (a bad byte throws) and BOM-stripping, as parseYamlFile decodes. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function isProject(src: SourceDoc): boolean {
  const k = src.doc.get('kind');
  return k === 'Project';
}
