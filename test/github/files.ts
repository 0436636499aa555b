import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A workflow or action file of this repository, read and parsed. */
export interface GithubFile {
  /** Relative to the repository root, with forward slashes. */
  path: string;
  kind: 'workflow' | 'action';
  text: string;
  doc: Record<string, any>;
}

/** Every file GitHub would read: the action at the root, .github/workflows, and the example workflows. */
export function githubFiles(): GithubFile[] {
  const paths: string[] = [];
  for (const n of ['action.yml', 'action.yaml']) if (existsSync(join(ROOT, n))) paths.push(n);
  for (const dir of ['.github/workflows', 'examples/.github/workflows']) {
    const abs = join(ROOT, dir);
    if (!existsSync(abs)) continue;
    for (const n of readdirSync(abs).sort()) if (/\.ya?ml$/.test(n)) paths.push(`${dir}/${n}`);
  }
  return paths.map((p) => {
    const text = readFileSync(join(ROOT, p), 'utf8');
    const parsed = YAML.parseDocument(text);
    if (parsed.errors.length) throw new Error(`${p}: ${parsed.errors[0]!.message}`);
    return { path: p, kind: /(^|\/)action\.ya?ml$/.test(p) ? 'action' : 'workflow', text, doc: parsed.toJS() };
  });
}

export function workflow(path: string): GithubFile {
  const f = githubFiles().find((x) => x.path === path);
  if (!f) throw new Error(`no ${path}`);
  return f;
}

/** A step with where it is, for messages. */
export interface Located<T> {
  where: string;
  job?: string;
  step: T;
}

export type Step = Record<string, any>;

/** Every step of a workflow (each job's) or of a composite action. */
export function steps(f: GithubFile): Located<Step>[] {
  if (f.kind === 'action') {
    return ((f.doc['runs']?.['steps'] ?? []) as Step[]).map((s, i) => ({ where: `${f.path} runs.steps[${i}]${s['name'] ? ` (${s['name']})` : ''}`, step: s }));
  }
  const out: Located<Step>[] = [];
  for (const [job, def] of Object.entries((f.doc['jobs'] ?? {}) as Record<string, Record<string, any>>)) {
    ((def['steps'] ?? []) as Step[]).forEach((s, i) =>
      out.push({ where: `${f.path} jobs.${job}.steps[${i}]${s['name'] ? ` (${s['name']})` : s['id'] ? ` (${s['id']})` : ''}`, job, step: s }),
    );
  }
  return out;
}

/** steward's own action: `./` in this repository, `<owner>/steward@<ref>` in the examples. */
export function isStewardAction(uses: unknown): boolean {
  return typeof uses === 'string' && (uses === './' || uses === '.' || /^[\w.-]+\/steward@[\w./-]+$/.test(uses));
}

/**
 * Splits a string the way the action does (xargs: single and double quotes, backslashes, whitespace and
 * newlines between words; nothing expanded).
 */
export function splitArgs(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < s.length) {
      cur += s[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unmatched ${quote} in ${JSON.stringify(s)}`);
  if (inWord) out.push(cur);
  return out;
}

/** One run of steward that a workflow asks for, with the arguments the action adds (see action.yml). */
export interface Invocation {
  where: string;
  command: string;
  argv: string[];
}

export function stewardInvocations(f: GithubFile, actionInputs: Record<string, { default?: string }>): Invocation[] {
  const out: Invocation[] = [];
  for (const { where, step } of steps(f)) {
    if (!isStewardAction(step['uses'])) continue;
    const w = { ...Object.fromEntries(Object.entries(actionInputs).map(([k, v]) => [k, v.default ?? ''])), ...(step['with'] ?? {}) } as Record<string, unknown>;
    const str = (k: string) => String(w[k] ?? '');
    const command = str('command');
    const argv = splitArgs(str('args'));
    const has = (flag: string) => argv.some((a) => a === flag || a.startsWith(`${flag}=`));
    const extra: string[] = [];
    if (command === 'plan' && !has('--out') && str('plan-file') !== '') extra.push('--out', str('plan-file'));
    if ((command === 'plan' || command === 'report') && !has('--format') && str('summary') === 'true') extra.push('--format', 'markdown');
    out.push({ where, command, argv: [...argv, ...extra] });
  }
  return out;
}

export function rel(p: string): string {
  return relative(ROOT, p).split('\\').join('/');
}
