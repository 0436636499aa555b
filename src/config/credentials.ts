/**
 * Which environment variables hold credentials, and their values: what resource files may not read
 * (`${VAR}`) and what no output may show (see docs/security.md).
 */
import type { Env } from './interpolate.ts';
import { isObject } from '../shared/object.ts';

/** The variables steward's own examples and errors suggest; credentials whatever the project file says. */
export const DEFAULT_CREDENTIAL_VARIABLES = [
  'STEWARD_OBS_TOKEN',
  'STEWARD_OBS_KEY_ID',
  'STEWARD_OBS_KEY_SECRET',
  'STEWARD_CLOUD_KEY_ID',
  'STEWARD_CLOUD_KEY_SECRET',
] as const;

const SECTIONS = ['observability', 'cloud'] as const;
const SECRET_KEYS = ['token', 'keyId', 'keySecret'] as const;

/**
 * Every variable the project names as a credential (`token`, `keyId`, `keySecret` under `observability`
 * and `cloud`, in the base spec and in every environment overlay), plus the defaults. Takes the spec as
 * plain data, so it works on a document not yet schema-checked; anything malformed is skipped.
 */
export function credentialVariables(spec: unknown): string[] {
  const names = new Set<string>(DEFAULT_CREDENTIAL_VARIABLES);
  const fromSections = (holder: unknown) => {
    if (!isObject(holder)) return;
    for (const section of SECTIONS) {
      const s = holder[section];
      if (!isObject(s)) continue;
      for (const key of SECRET_KEYS) {
        const ref = s[key];
        if (isObject(ref) && typeof ref['env'] === 'string' && ref['env'] !== '') names.add(ref['env']);
      }
    }
  };
  fromSections(spec);
  const envs = isObject(spec) ? spec['environments'] : undefined;
  if (isObject(envs)) for (const overlay of Object.values(envs)) fromSections(overlay);
  return [...names].sort();
}

/**
 * The values of the given variables that are set, and the encodings steward itself makes of them (the
 * Basic credential of every id/secret pair), for redaction.
 */
export function credentialValues(names: readonly string[], env: Env): string[] {
  const values: string[] = [];
  for (const n of names) {
    const v = env[n];
    if (v !== undefined && v !== '') values.push(v);
  }
  const ids = names
    .filter((n) => /KEY_?ID$/i.test(n))
    .map((n) => env[n])
    .filter((v): v is string => !!v);
  const secrets = names
    .filter((n) => /SECRET$/i.test(n))
    .map((n) => env[n])
    .filter((v): v is string => !!v);
  for (const id of ids) for (const s of secrets) values.push(Buffer.from(`${id}:${s}`, 'utf8').toString('base64'));
  return values;
}

/** Words that, as a part of a variable's name, say it holds a secret: GITHUB_TOKEN, DB_PASSWORD, SENTRY_DSN. */
const SECRET_WORDS = new Set([
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWORDS',
  'PASSWD',
  'PASS',
  'PASSPHRASE',
  'CREDENTIAL',
  'CREDENTIALS',
  'CREDS',
  'AUTH',
  'COOKIE',
  'DSN',
  'APIKEY',
  'PRIVATEKEY',
  'ACCESSKEY',
  // A personal access token: GH_PAT, GITHUB_PAT, AZURE_DEVOPS_PAT (red team: not a secret's name before).
  'PAT',
  'CONNSTR',
  'CONNECTIONSTRING',
]);

/** Two words that together name a secret (a URL whose path is the key; a string holding AccountKey=…). */
const SECRET_PAIRS = new Map([
  ['WEBHOOK', 'URL'],
  ['CONNECTION', 'STRING'],
]);

/** Endings that make a longer word a secret's name (PGPASSWORD). */
const SECRET_SUFFIXES = ['PASSWORD', 'PASSWD', 'SECRET', 'TOKEN'];

/** Words that make a KEY after them a secret (API_KEY, AWS_ACCESS_KEY_ID, SIGNING_KEY); KEY alone says nothing (SORT_KEY). */
const KEY_KINDS = new Set([
  'API',
  'ACCESS',
  'PRIVATE',
  'SIGNING',
  'ENCRYPTION',
  'MASTER',
  'CLIENT',
  'LICENSE',
  'ACCOUNT',
  'SSH',
  'GPG',
  'DEPLOY',
  'WEBHOOK',
  'HMAC',
  'JWT',
  'SESSION',
]);

/**
 * The word of a variable's name that says it may hold a secret (`TOKEN` in GITHUB_TOKEN, `ACCESS_KEY` in
 * AWS_SECRET_ACCESS_KEY), or undefined. Words are the parts between underscores and at camelCase humps, in any
 * letter case. A CI job's environment holds secrets steward is not told of; their names say what they are.
 */
export function secretWord(name: string): string | undefined {
  // Digits are words of their own: GITHUB_TOKEN2 and DB_PASSWORD1 are secrets' names too (red team, round 11).
  const digits = (s: string) => s.replace(/([A-Za-z])([0-9])/g, '$1_$2').replace(/([0-9])([A-Za-z])/g, '$1_$2');
  return (
    wordsSay(
      digits(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'))
        .toUpperCase()
        .split('_'),
    ) ??
    // And without its humps: Windows reads environment names ignoring case, so ${GITHUB_ToKeN} reads
    // GITHUB_TOKEN there, though its humps make the words TO, KE and N (red team, round 11).
    wordsSay(digits(name).toUpperCase().split('_'))
  );
}

/** Variables CI platforms and clouds give a job for their own APIs (exact names, upper case). */
const PLATFORM_CREDENTIALS = new Map<string, string>([
  ['GH_TOKEN', "GitHub's token"],
  ['CI_JOB_TOKEN', "GitLab's job token"],
  ['CI_JOB_JWT', "GitLab's job token"],
  ['CI_JOB_JWT_V1', "GitLab's job token"],
  ['CI_JOB_JWT_V2', "GitLab's job token"],
  ['CI_REGISTRY_PASSWORD', "GitLab's registry password"],
  ['CI_DEPLOY_PASSWORD', "GitLab's deploy token"],
  ['SYSTEM_ACCESSTOKEN', "Azure Pipelines' job token"],
  ['BUILDKITE_AGENT_ACCESS_TOKEN', "Buildkite's agent token"],
  ['CIRCLE_TOKEN', "CircleCI's token"],
  ['BITBUCKET_STEP_OIDC_TOKEN', "Bitbucket's OIDC token"],
  ['NPM_TOKEN', "npm's token"],
  ['NODE_AUTH_TOKEN', "npm's token"],
  ['VAULT_TOKEN', "Vault's token"],
  ['GOOGLE_APPLICATION_CREDENTIALS', "Google Cloud's credentials"],
]);
/** Prefixes of the same (GitHub refuses secrets of its users named GITHUB_…; ACTIONS_… are the runner's). */
const PLATFORM_PREFIXES: ReadonlyArray<[string, string]> = [
  ['GITHUB_', "GitHub's job token or the runner's"],
  ['ACTIONS_', "the GitHub Actions runner's"],
  ['RUNNER_', "the GitHub Actions runner's"],
  ['AWS_', "AWS's credentials"],
  ['AZURE_', "Azure's credentials"],
  ['ARM_', "Azure's credentials"],
  ['GOOGLE_', "Google Cloud's credentials"],
  ['GCP_', "Google Cloud's credentials"],
];

/**
 * Whose credential a variable is when a CI platform or a cloud put it in the job's environment for its own
 * API (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY), or undefined. steward sends what `token: { env: … }` names to the
 * url in steward.yaml, which a pull request may change: naming one of these would send the job's repository or
 * cloud access to the observability API's host, even one `STEWARD_ALLOWED_HOSTS` lists. Windows reads names
 * ignoring case, so the comparison does.
 */
export function platformCredential(name: string): string | undefined {
  const upper = name.toUpperCase();
  const exact = PLATFORM_CREDENTIALS.get(upper);
  if (exact) return exact;
  return PLATFORM_PREFIXES.find(([p]) => upper.startsWith(p))?.[1];
}

/** The word of these (a name's, in upper case) that says the name holds a secret; see secretWord. */
function wordsSay(words: readonly string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (SECRET_WORDS.has(w)) return w;
    if (w === 'KEY' && i > 0 && KEY_KINDS.has(words[i - 1]!)) return `${words[i - 1]}_KEY`;
    if (i > 0 && SECRET_PAIRS.get(words[i - 1]!) === w) return `${words[i - 1]}_${w}`;
    // A KEY run together with what makes it a secret's: SECRETKEY, SESSIONKEY, AWS_ACCESSKEYID (not MONKEY).
    const joined = keyKindOf(w);
    if (joined) return joined;
    // MYSQL_PWD, not the shell's PWD or OLDPWD (a name of one word).
    if (w === 'PWD' && i > 0) return w;
    // A word that ends in one: PGPASSWORD (libpq), GHTOKEN.
    const suffix = SECRET_SUFFIXES.find((x) => w.length > x.length && w.endsWith(x));
    if (suffix) return suffix;
  }
  return undefined;
}

/** `SECRET_KEY` for SECRETKEY (and SECRETKEYID): a word ending in KEY whose start ends in a KEY_KINDS word or SECRET. */
function keyKindOf(w: string): string | undefined {
  const stem = w.endsWith('KEYID') ? w.slice(0, -2) : w;
  if (!stem.endsWith('KEY') || stem.length === 3) return undefined;
  const before = stem.slice(0, -3);
  const kind = before.endsWith('SECRET') ? 'SECRET' : [...KEY_KINDS].find((k) => before.endsWith(k));
  return kind && `${kind}_KEY`;
}

/**
 * Values of the environment's variables whose names say they hold secrets (`secretWord`), for redaction
 * from every output. Short values are left out (`AUTH_MODE=disabled` must not hide the word "disabled"
 * everywhere): 12 characters or more, or 8 with a digit.
 */
export function secretLookingValues(env: Env): string[] {
  const out: string[] = [];
  for (const [name, v] of Object.entries(env)) {
    if (v === undefined || !secretWord(name)) continue;
    if (v.length >= 12 || (v.length >= 8 && /[0-9]/.test(v))) out.push(v);
  }
  return out;
}

/**
 * What `${VAR}` in resource files may read: never a credential variable (`deny`); when the project sets
 * `spec.resourceVariablePrefix`, only variables whose names start with it; without a prefix, no variable whose
 * name says it holds a secret (`secretWord`).
 */
export interface VariablePolicy {
  deny: readonly string[];
  allowPrefix?: string;
}

/** The policy a project spec (plain data, maybe not yet schema-checked) sets. */
export function variablePolicy(spec: unknown): VariablePolicy {
  const prefix =
    isObject(spec) && typeof spec['resourceVariablePrefix'] === 'string' && spec['resourceVariablePrefix'] !== '' ? spec['resourceVariablePrefix'] : undefined;
  return { deny: credentialVariables(spec), ...(prefix !== undefined ? { allowPrefix: prefix } : {}) };
}
