import { isScalar, visit, Scalar } from 'yaml';
import type { Issue } from '../errors.ts';
import { secretWord } from './credentials.ts';
import { toPointer } from '../shared/pointer.ts';
import { issueAt, type SourceDoc } from './source.ts';

/** What a reference may read (see credentials.ts): denied names, and an optional required prefix. */
export interface ReadRule {
  deny: ReadonlySet<string>;
  allowPrefix?: string;
  /**
   * Refuse names that say they hold a secret (GITHUB_TOKEN), when no prefix is set. With a prefix, the project
   * chose what resource files read.
   */
  secretNames?: boolean;
  /**
   * The Project document (steward.yaml), which a pull request may change as well: it reads no secret-named
   * variable whatever the prefix (its settings name files and numbers; `spec.state: ${GITHUB_TOKEN}.json`
   * would write the token into a file's name), and its messages say so.
   */
  project?: boolean;
}

export type Env = Readonly<Record<string, string | undefined>>;

export type Interpolated = { ok: true; value: string; changed: boolean } | { ok: false; message: string; tooLong?: true };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The inverse of interpolation for text that must stay literal (a server's names written by import): every
 * `${` becomes `$${` in every string of the value, so loading the file reads back exactly the same text.
 */
export function escapeInterpolation(v: unknown): unknown {
  if (typeof v === 'string') return v.replaceAll('${', () => '$${');
  if (Array.isArray(v)) return v.map(escapeInterpolation);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, escapeInterpolation(x)]));
  return v;
}

/**
 * Whether a name is a denied one in any letter case: Windows reads environment names ignoring case, so
 * `${steward_obs_token}` would read STEWARD_OBS_TOKEN there (red team, round 7).
 */
function denied(deny: ReadonlySet<string>, name: string): boolean {
  if (deny.has(name)) return true;
  const upper = name.toUpperCase();
  for (const d of deny) if (d.toUpperCase() === upper) return true;
  return false;
}

/**
 * Characters the interpolated strings of one file may hold in all (16 Mi): 4 MiB of `${LONG}` references to
 * a variable of 2,000 characters built a string of 700 MB, past what V8 can hold ("internal error: Invalid
 * string length", after 640 MB of memory). A file is at most 4 MiB, and no steward file needs more text than
 * that after its variables are written in (red team).
 */
export const MAX_INTERPOLATED_CHARS = 16 * 1024 * 1024;

/** What the interpolated strings of one file may still hold (shared by its documents), and whether it ran out. */
export interface InterpolationBudget {
  room: number;
  over: boolean;
}

export const interpolationBudget = (): InterpolationBudget => ({ room: MAX_INTERPOLATED_CHARS, over: false });

/**
 * Expands `${VAR}` and `${VAR:-default}` from env; `$${` is a literal `${`. An unset variable without a
 * default is an error, never an empty string (a silently empty URL or threshold is worse than a failure).
 * `room`: the characters the values written in may bring the text to, past which it is an error.
 */
export function interpolateString(input: string, env: Env, rule?: ReadRule, room = Infinity): Interpolated {
  if (!input.includes('${')) return { ok: true, value: input, changed: false };
  let out = '';
  let i = 0;
  while (i < input.length) {
    if (input.startsWith('$${', i)) {
      out += '${';
      i += 3;
      continue;
    }
    if (!input.startsWith('${', i)) {
      out += input[i];
      i++;
      continue;
    }
    const end = input.indexOf('}', i + 2);
    if (end === -1) return { ok: false, message: `unterminated "\${" in "${input}": write \${NAME} or \${NAME:-default}` };
    const body = input.slice(i + 2, end);
    const sep = body.indexOf(':-');
    const name = sep === -1 ? body : body.slice(0, sep);
    if (!NAME.test(name)) {
      return { ok: false, message: `"\${${body}}" is not a variable reference: names are letters, digits and _, like \${STEWARD_OBS_URL}` };
    }
    if (rule && denied(rule.deny, name)) {
      return {
        ok: false,
        message: rule.project
          ? `\${${name}} reads a credential (${name} holds an API token or key): steward.yaml names credentials only as token: { env: ${name} } (and keyId / keySecret), so they never reach a plan, a file's name or an output`
          : `\${${name}} reads a credential (${name} holds an API token or key): resource files may not read credentials, so they never reach a plan, a PR comment, a file or the server`,
      };
    }
    if (rule?.project) {
      const word = secretWord(name);
      if (word !== undefined) {
        return {
          ok: false,
          message: `\${${name}} may hold a secret (${word} in its name): steward.yaml's settings may not read secrets (a state file named after a token is a token on disk and in every listing); write the value, or read a variable whose name does not say secret`,
        };
      }
    } else if (rule?.allowPrefix !== undefined && !name.startsWith(rule.allowPrefix)) {
      return {
        ok: false,
        message: `\${${name}} is not readable here: resource files may read only variables whose names start with ${rule.allowPrefix} (spec.resourceVariablePrefix)`,
      };
    }
    const word = rule?.secretNames === true && rule.allowPrefix === undefined ? secretWord(name) : undefined;
    if (word !== undefined) {
      return {
        ok: false,
        message: `\${${name}} may hold a secret (${word} in its name): resource files may not read secrets, so they never reach a plan, a PR comment, a file or the server; if it holds none, set spec.resourceVariablePrefix and give it that prefix`,
      };
    }
    const value = env[name];
    if (value !== undefined && value !== '' && out.length + value.length > room) {
      return {
        ok: false,
        message: `\${${name}} makes the file's text longer than ${MAX_INTERPOLATED_CHARS / 1048576} Mi characters once its variables are written in (${name} holds ${value.length} characters): write the value where it is needed, not over and over`,
        tooLong: true,
      };
    }
    if (value !== undefined && value !== '') out += value;
    else if (sep !== -1) out += body.slice(sep + 2);
    // An empty value counts as unset (as the shell's :- does), and is named as empty: a CI secret the job cannot
    // see arrives that way, and "not set" sends people looking for a variable that `env` shows is there.
    else if (value === '') {
      return { ok: false, message: `environment variable ${name} is set but empty (an empty value counts as unset; use \${${name}:-default} for a fallback)` };
    } else return { ok: false, message: `environment variable ${name} is not set (use \${${name}:-default} for a fallback)` };
    i = end + 1;
  }
  return { ok: true, value: out, changed: true };
}

/**
 * Interpolates every string scalar of a parsed document in place. A reference `rule` does not allow (a
 * credential, a name without the project's prefix) is an error at its position (see credentials.ts). A plain (unquoted) scalar that was only
 * a reference takes the type its value reads as (`threshold: ${T}` with T=50 is the number 50); quoted
 * scalars stay strings. `skip(path)` leaves subtrees alone (connection settings are resolved when used).
 */
export function interpolateDocument(
  src: SourceDoc,
  env: Env,
  skip: (path: readonly (string | number)[]) => boolean = () => false,
  rule?: ReadRule,
  budget: InterpolationBudget = interpolationBudget(),
): Issue[] {
  const issues: Issue[] = [];
  visit(src.doc, {
    Scalar(_key, node, ancestors) {
      // Past the budget the file is refused, said once: every later reference would be over too.
      if (budget.over || typeof node.value !== 'string' || !node.value.includes('${')) return;
      const path = pathOf(ancestors, node);
      if (skip(path)) return;
      const r = interpolateString(node.value, env, rule, budget.room);
      if (!r.ok) {
        issues.push(issueAt(src.file, src.lineCounter, node.range?.[0] ?? 0, toPointer(path), r.message));
        if (r.tooLong) budget.over = true;
        return;
      }
      budget.room = Math.max(0, budget.room - r.value.length);
      node.value = node.type === Scalar.PLAIN ? typed(r.value) : r.value;
    },
  });
  return issues;
}

function typed(s: string): string | number | boolean | null {
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s.trim())) return Number(s);
  if (s === 'true' || s === 'false') return s === 'true';
  return s;
}

/** The key path from the document root to a node, from yaml's ancestor list. */
function pathOf(ancestors: readonly unknown[], node: unknown): (string | number)[] {
  const path: (string | number)[] = [];
  const chain = [...ancestors, node];
  for (let i = 0; i < chain.length - 1; i++) {
    const parent = chain[i] as { items?: unknown[]; key?: unknown; value?: unknown };
    const child = chain[i + 1];
    if (parent && 'key' in parent && 'value' in parent && parent.value === child) {
      path.push(isScalar(parent.key) ? String(parent.key.value) : '?');
    } else if (parent && Array.isArray(parent.items)) {
      const idx = parent.items.indexOf(child);
      if (idx !== -1 && !isPairLike(child)) path.push(idx);
    }
  }
  return path;
}

function isPairLike(x: unknown): boolean {
  return typeof x === 'object' && x !== null && 'key' in x && 'value' in x;
}
