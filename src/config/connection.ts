import { CLOUD_PROFILES, OBSERVABILITY_PROFILES } from '../clients/profiles.ts';
import { DEFAULT_REQUESTS_PER_MINUTE, DEFAULT_TIMEOUT_MS, parseApiUrl } from '../clients/settings.ts';
import { CliError, ConfigError, type SourcePos } from '../errors.ts';
import { ALLOWED_HOSTS_VAR, hostAllowed, listed, parseAllowedHosts } from './allowed-hosts.ts';
import { credentialVariables, platformCredential, secretWord } from './credentials.ts';
import { interpolateString, MAX_INTERPOLATED_CHARS, type Env } from './interpolate.ts';
import type { Project } from './project.ts';

export interface ObservabilityConnection {
  /** The API profile (`observability.api`, default seed). */
  api: 'seed' | 'hyperdx' | 'clickstack-cloud';
  url: string;
  /** Bearer token (seed, hyperdx); empty with clickstack-cloud, which uses the key below. */
  token: string;
  /** The variable(s) the credential came from, for error hints. */
  tokenEnv: string;
  keyId?: string;
  keySecret?: string;
  organizationId?: string;
  serviceId?: string;
  requestsPerMinute: number;
  timeoutMs: number;
}

export interface CloudConnection {
  /** The API profile (`cloud.api`, default seed): which paths the client reads. */
  api: 'seed' | 'clickhouse-cloud';
  url: string;
  keyId: string;
  keySecret: string;
  keyIdEnv: string;
  keySecretEnv: string;
  requestsPerMinute: number;
  timeoutMs: number;
}

/**
 * The observability service allows about 100 requests a minute per key (DESIGN.md, Plan); a profile may
 * default lower (`requestsPerMinute` in src/clients/profiles.ts: 50 through ClickHouse Cloud).
 */
export { DEFAULT_REQUESTS_PER_MINUTE };

type Section = 'observability' | 'cloud';

/** The profile's default rate (a value the schema refused never gets here; the plain default if it did). */
function profileRate(profiles: Readonly<Record<string, { requestsPerMinute: number }>>, api: string): number {
  return Object.hasOwn(profiles, api) ? profiles[api]!.requestsPerMinute : DEFAULT_REQUESTS_PER_MINUTE;
}

/** Where a connection field was set: the environment overlay when it sets it, else the base spec. */
function pointerOf(project: Project, section: Section, key: string): string {
  const overlay = project.envName
    ? (project.spec.environments?.[project.envName] as Record<string, Record<string, unknown> | undefined> | undefined)
    : undefined;
  return overlay?.[section]?.[key] !== undefined ? `/spec/environments/${project.envName}/${section}/${key}` : `/spec/${section}/${key}`;
}

function resolveUrl(project: Project, section: Section, env: Env): string {
  const raw = project.spec[section]?.url;
  if (raw === undefined) {
    throw new ConfigError(
      `spec.${section}.url is not set: steward needs the ${section} API's address`,
      project.locate(`/spec/${section === 'cloud' ? 'cloud' : 'observability'}`),
      `/spec/${section}`,
    );
  }
  const ptr = pointerOf(project, section, 'url');
  refuseSecretRead(project, raw, `${section} url`, ptr);
  const r = interpolateString(raw, env, undefined, MAX_INTERPOLATED_CHARS);
  if (!r.ok) throw new ConfigError(r.message, project.locate(ptr), ptr);
  const parsed = parseApiUrl(r.value);
  if (!parsed.ok) {
    const message =
      parsed.problem.kind === 'not-a-url'
        ? `${section} url "${r.value}" is not a URL (like https://api.example.com)`
        : `${section} url must use http or https, not ${parsed.problem.protocol}`;
    throw new ConfigError(message, project.locate(ptr), ptr);
  }
  const url = parsed.url;
  // Credentials in clear text over the network: only to this machine, unless the project says otherwise.
  const allow = (project.spec[section] as { allowInsecureHttp?: boolean } | undefined)?.allowInsecureHttp === true;
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allow) {
    throw new ConfigError(
      `${section} url uses plain http to ${url.hostname}: the ${section === 'cloud' ? 'API key' : 'token or key'} would cross the network unencrypted; use https, or set spec.${section}.allowInsecureHttp: true if this network is trusted`,
      project.locate(ptr),
      ptr,
    );
  }
  // The job's owner may pin where credentials go; steward.yaml (a pull request can change it) cannot widen it.
  const allowed = parseAllowedHosts(env[ALLOWED_HOSTS_VAR]);
  if (!allowed.ok) throw new CliError(allowed.message);
  const verdict = allowed.rules ? hostAllowed(allowed.rules, url, isLoopback(url.hostname)) : 'yes';
  if (verdict !== 'yes') {
    const what = section === 'cloud' ? 'API key' : 'token or key';
    throw new ConfigError(
      verdict === 'no'
        ? `${section} url names ${url.host}, which ${ALLOWED_HOSTS_VAR} does not list (${listed(allowed.rules!)}): steward sends the ${what} only to the hosts that variable lists; nothing was sent`
        : `${section} url uses plain http to ${url.host}, which ${ALLOWED_HOSTS_VAR} lists for https only (${listed(allowed.rules!)}): the ${what} would cross the network unencrypted; use https, or have the job list it as http://${url.host}; nothing was sent`,
      project.locate(ptr),
      ptr,
    );
  }
  return r.value.replace(/\/+$/, '');
}

/**
 * A connection setting may not read a credential's variable nor one whose name says it holds a secret: what
 * it reads goes into a url, which is looked up in DNS (`https://${STEWARD_OBS_TOKEN}.evil.example` hands the
 * token to evil.example's name server before any request), sent to proxies and printed in errors, where the
 * URL parser's lower-casing would also slip it past redaction. A pull request can change steward.yaml; this
 * holds whatever the job sets.
 */
function refuseSecretRead(project: Project, raw: string, what: string, ptr: string): void {
  const credentials = new Set(credentialVariables(project.spec).map((n) => n.toUpperCase()));
  for (const m of raw.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = m[1]!;
    const why = credentials.has(name.toUpperCase()) ? 'holds a credential' : secretWord(name) ? `is named as a secret's (${secretWord(name)})` : undefined;
    if (why === undefined) continue;
    throw new ConfigError(
      `${what} reads \${${name}}, which ${why}: what a connection setting reads goes into a url, which DNS, proxies and error messages see; write the value, or read a variable that holds only it (like \${STEWARD_OBS_URL})`,
      project.locate(ptr),
      ptr,
    );
  }
}

/**
 * This machine: `localhost`, 127.0.0.0/8, ::1 (a URL's hostname keeps IPv6 in brackets). Not `localhost.` nor
 * `x.localhost`: glibc resolves only `localhost` itself from /etc/hosts and asks DNS for those, where a
 * resolver (or a search domain's wildcard) may answer any address, and the token would go there in clear.
 */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(h)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The variable steward's examples name for a credential (`STEWARD_OBS_TOKEN`, `STEWARD_CLOUD_KEY_SECRET`). */
function conventionalVariable(section: Section, key: string): string {
  return `STEWARD_${section === 'cloud' ? 'CLOUD' : 'OBS'}_${key.replace(/[A-Z]/g, (c) => '_' + c).toUpperCase()}`;
}

function resolveSecret(project: Project, section: Section, key: string, what: string, env: Env): { value: string; name: string } {
  const ref = (project.spec[section] as Record<string, { env: string } | undefined> | undefined)?.[key];
  const ptr = pointerOf(project, section, key);
  if (!ref)
    throw new ConfigError(
      `spec.${section}.${key} is not set: name the environment variable that holds the ${what}, like ${key}: { env: ${conventionalVariable(section, key)} }`,
      project.locate(`/spec/${section}`),
      `/spec/${section}`,
    );
  const platform = platformCredential(ref.env);
  if (platform !== undefined) {
    throw new ConfigError(
      `spec.${section}.${key} names ${ref.env}, ${platform}: steward sends the ${what} to the url above, and a pull request may change both; name the variable that holds the ${what} itself (like ${conventionalVariable(section, key)}); nothing was sent`,
      project.locate(ptr),
      ptr,
    );
  }
  const value = env[ref.env];
  if (value === undefined || value === '') {
    // Empty is named apart from unset: a CI secret the job cannot see (a fork's pull request) arrives empty.
    throw new ConfigError(`environment variable ${ref.env} is ${value === '' ? 'set but empty' : 'not set'}: it holds the ${what}`, project.locate(ptr), ptr);
  }
  return { value, name: ref.env };
}

/**
 * `timeoutSeconds` as the whole milliseconds a timer can keep, at least 1: `1e-9` was a deadline of
 * 0.0000010000000000000002 ms, which every message then quoted so, and `0.0015` one Node rounds as it likes.
 */
function timeoutMs(seconds: number | undefined): number {
  return seconds === undefined ? DEFAULT_TIMEOUT_MS : Math.max(1, Math.round(seconds * 1000));
}

/** Resolves the observability connection for commands that connect; throws ConfigError naming file:line. */
export function resolveObservability(project: Project, env: Env): ObservabilityConnection {
  const o = project.spec.observability ?? {};
  const api = o.api ?? 'seed';
  const url = resolveUrl(project, 'observability', env);
  const common = {
    api,
    url,
    requestsPerMinute: o.requestsPerMinute ?? profileRate(OBSERVABILITY_PROFILES, api),
    timeoutMs: timeoutMs(o.timeoutSeconds),
  };
  if (api === 'clickstack-cloud') {
    const keyId = resolveSecret(project, 'observability', 'keyId', 'ClickHouse Cloud API key id', env);
    const keySecret = resolveSecret(project, 'observability', 'keySecret', 'ClickHouse Cloud API key secret', env);
    return {
      ...common,
      token: '',
      tokenEnv: `${keyId.name} and ${keySecret.name}`,
      keyId: keyId.value,
      keySecret: keySecret.value,
      organizationId: resolveUuid(project, 'organizationId', 'ClickHouse Cloud organization id', env),
      serviceId: resolveUuid(project, 'serviceId', 'ClickHouse Cloud service id', env),
    };
  }
  const token = resolveSecret(project, 'observability', 'token', 'observability API token', env);
  return { ...common, token: token.value, tokenEnv: token.name };
}

/** A plain setting that may read the environment (`${VAR}`), required by the profile in use. */
function resolvePlain(project: Project, section: Section, key: string, what: string, env: Env): string {
  const raw = (project.spec[section] as Record<string, unknown> | undefined)?.[key];
  if (typeof raw !== 'string') {
    throw new ConfigError(
      `spec.${section}.${key} is not set: the ${what} is part of every ClickStack path`,
      project.locate(`/spec/${section}`),
      `/spec/${section}`,
    );
  }
  const ptr = pointerOf(project, section, key);
  refuseSecretRead(project, raw, `spec.${section}.${key}`, ptr);
  const r = interpolateString(raw, env, undefined, MAX_INTERPOLATED_CHARS);
  if (!r.ok) throw new ConfigError(r.message, project.locate(ptr), ptr);
  return r.value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id of the ClickStack path: ClickHouse Cloud's spec types both path parameters as UUIDs and its server
 * answers anything else with a 400, so a name (as people say an org or service) is refused here, at its line.
 */
function resolveUuid(project: Project, key: 'organizationId' | 'serviceId', what: string, env: Env): string {
  const value = resolvePlain(project, 'observability', key, what, env);
  if (UUID.test(value)) return value;
  const ptr = pointerOf(project, 'observability', key);
  throw new ConfigError(
    `spec.observability.${key} is ${JSON.stringify(value)}: the ${what} is a UUID (the console shows it), like 6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31`,
    project.locate(ptr),
    ptr,
  );
}

export function resolveCloud(project: Project, env: Env): CloudConnection {
  const c = project.spec.cloud ?? {};
  const api = c.api ?? 'seed';
  const url = resolveUrl(project, 'cloud', env);
  const keyId = resolveSecret(project, 'cloud', 'keyId', 'cloud API key id', env);
  const keySecret = resolveSecret(project, 'cloud', 'keySecret', 'cloud API key secret', env);
  return {
    api,
    url,
    keyId: keyId.value,
    keySecret: keySecret.value,
    keyIdEnv: keyId.name,
    keySecretEnv: keySecret.name,
    requestsPerMinute: c.requestsPerMinute ?? profileRate(CLOUD_PROFILES, api),
    timeoutMs: timeoutMs(c.timeoutSeconds),
  };
}

/**
 * Where `<section>.api` is set (the environment overlay when it sets it), or where it would go (the
 * section) when it is not: named by the hint a 404 gets when another profile would read another path.
 */
export function apiSettingAt(project: Project, section: Section): SourcePos {
  return project.locate(pointerOf(project, section, 'api'));
}
