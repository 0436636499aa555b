/**
 * The connection defaults and the API URL rule, in one place: the project file's connection
 * (src/config/connection.ts) and the HTTP layer both read them from here. No imports, so the config layer
 * can use it without loading got.
 */

/** Deadline of a whole request, from sending to the last body byte (`timeoutSeconds`, default 30 s). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Longest silence on a connection once connected (never more than the whole-request deadline). */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
export const DEFAULT_CONCURRENCY = 4;
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
