/**
 * The connection defaults and the API URL rule, in one place: the project file's connection
 * (src/config/connection.ts) and the HTTP layer both read them from here. No imports, so the config layer
 * can use it without loading the HTTP library.
 */

/** Deadline of a whole request, from sending to the last body byte (`timeoutSeconds`, default 30 s). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Longest silence on a connection once connected (never more than the whole-request deadline). */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
export const DEFAULT_CONCURRENCY = 4;

/** Client rate limit when the project sets no `requestsPerMinute`: the seed's "about 100 requests a minute per key". */
export const DEFAULT_REQUESTS_PER_MINUTE = 100;

/**
 * The default under `cloud.api: clickhouse-cloud` and `observability.api: clickstack-cloud`, which both go
 * through api.clickhouse.cloud. ClickHouse Cloud documents "a limit of 10 requests over a 10-second window"
 * per API key (docs: Cloud API overview, "Rate limits"; the OpenAPI file itself states no limit). 50 a
 * minute starts requests 1.2 s apart, so no 10-second window holds more than 9: one to spare for the
 * server's clock and the network's jitter. Both clients of a project share a key only in separate commands
 * (plan and apply read the observability API, report the cloud API).
 */
export const CLICKHOUSE_CLOUD_REQUESTS_PER_MINUTE = 50;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** What is wrong with an API URL: not absolute, or not http(s). */
export type ApiUrlProblem = { kind: 'not-a-url'; cause: unknown } | { kind: 'scheme'; protocol: string };

/** Parses an API base URL: an absolute http:// or https:// URL, or the problem (each caller words it). */
export function parseApiUrl(text: string): { ok: true; url: URL } | { ok: false; problem: ApiUrlProblem } {
  let url: URL;
  try {
    url = new URL(text);
  } catch (cause) {
    return { ok: false, problem: { kind: 'not-a-url', cause } };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: { kind: 'scheme', protocol: url.protocol } };
  return { ok: true, url };
}
