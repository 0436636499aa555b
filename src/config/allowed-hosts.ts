/**
 * `STEWARD_ALLOWED_HOSTS`: the hosts the job's owner lets steward send credentials to. steward.yaml says where
 * to connect, and a pull request may change it; on a CI job that holds the token, a PR naming its own server
 * would receive the token with the first request. The variable lives in the job's environment, which the PR
 * does not set (docs/security.md, docs/ci.md), so when it is set the url must name a host it lists.
 */

export const ALLOWED_HOSTS_VAR = 'STEWARD_ALLOWED_HOSTS';

/** One entry: a host name or IP (`*.` for any name below a domain), and a port when the entry gives one. */
interface HostRule {
  text: string;
  host: string;
  wildcard: boolean;
  port?: string;
  /** Written `http://host`: the job's owner lets credentials go to it in clear (steward.yaml must say so too). */
  plainHttp: boolean;
}

export type AllowedHosts = { ok: true; rules: HostRule[] | undefined } | { ok: false; message: string };

/** A lower-case host without a trailing dot; IPv6 keeps its brackets, as `URL.hostname` gives it. */
function canonicalHost(h: string): string {
  return h.toLowerCase().replace(/\.$/, '');
}

/**
 * Parses the variable: entries separated by commas or white space, each `host`, `host:port`, `*.domain`,
 * `[v6]` or `[v6]:port`, or one of those after `http://` (plain http may go to it: with the list set, a
 * steward.yaml that turns on `allowInsecureHttp` cannot send the token in clear to a host the job named for
 * https). Unset or empty (a CI variable that is not defined arrives empty): no restriction (`rules`
 * undefined); separators alone are an error. Anything else in an entry (another scheme, a path, a `*` elsewhere) is an error, not a silent
 * non-match, so a typo cannot lock everything out without saying why.
 */
export function parseAllowedHosts(raw: string | undefined): AllowedHosts {
  const rules: HostRule[] = [];
  for (const text of (raw ?? '').split(/[\s,]+/).filter((t) => t !== '')) {
    const plainHttp = /^http:\/\//i.test(text);
    const m = /^(\*\.)?(\[[0-9a-fA-F:.]+\]|[^\s:/?#@[\]*\\]+)(?::(\d{1,5}))?$/.exec(plainHttp ? text.slice('http://'.length) : text);
    const host = m ? urlHostname(m[2]!) : undefined;
    if (!m || host === undefined || (m[1] !== undefined && m[2]!.startsWith('['))) {
      return {
        ok: false,
        message: `${ALLOWED_HOSTS_VAR} entry "${text.slice(0, 80)}" is not a host: write names like api.hyperdx.io, api.hyperdx.io:443 or *.clickhouse.cloud, separated by commas (no https://, no path; http://host:port only for a host plain http may go to)`,
      };
    }
    rules.push({
      text,
      host: canonicalHost(host),
      wildcard: m[1] !== undefined,
      plainHttp,
      ...(m[3] !== undefined ? { port: String(Number(m[3])) } : {}),
    });
  }
  // Only separators: a list built from parts that are all unset (`${A},${B}`). The job meant to restrict, so
  // steward does not take that as no list (red team, round 14); an empty value is a variable never defined.
  if (rules.length === 0 && raw !== undefined && raw !== '') {
    return {
      ok: false,
      message: `${ALLOWED_HOSTS_VAR} is set to ${JSON.stringify(raw.slice(0, 40))}, which lists no host (made of variables that are not set?): list the hosts, such as api.hyperdx.io, api.clickhouse.cloud, or leave it empty or unset for no restriction`,
    };
  }
  return { ok: true, rules: rules.length > 0 ? rules : undefined };
}

/**
 * An entry's host as the URL parser writes a url's (`URL.hostname`): the one parser both sides go through, so
 * `bücher.de`, `127.1` or `[::ffff:127.0.0.1]` in the variable match the url that names the same host.
 * Undefined when it is not a host.
 */
function urlHostname(host: string): string | undefined {
  try {
    const u = new URL(`http://${host}`);
    return u.pathname === '/' && u.search === '' && u.hash === '' ? u.hostname : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a URL's host and port are listed: 'yes'; 'https-only' when only entries without `http://` take it
 * and the url is plain http to a host other than this machine; 'no'. `*.example.com` takes any name below
 * example.com, not itself, and no IP address (`*.0.1` is not 10.0.0.1) or name with an empty label
 * (`x..example.com`).
 */
export function hostAllowed(rules: readonly HostRule[], url: URL, loopback: boolean): 'yes' | 'https-only' | 'no' {
  const host = canonicalHost(url.hostname);
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  const name = !host.startsWith('[') && !/^[\d.]+$/.test(host) && !host.split('.').includes('');
  const taking = rules.filter((r) => (r.wildcard ? name && host.endsWith(`.${r.host}`) : host === r.host) && (r.port === undefined || r.port === port));
  if (taking.length === 0) return 'no';
  return url.protocol === 'http:' && !loopback && !taking.some((r) => r.plainHttp) ? 'https-only' : 'yes';
}

/** The entries as the variable gave them, for an error message. */
export function listed(rules: readonly HostRule[]): string {
  const shown = rules.slice(0, 5).map((r) => r.text);
  return rules.length > 5 ? `${shown.join(', ')} and ${rules.length - 5} more` : shown.join(', ');
}
