/**
 * The hint a 404 gets when the API profile may be the wrong one: a server of another API has no path where
 * this profile reads (ClickHouse Cloud answers 404 at the seed's `.../ingestpipes`; a HyperDX server at
 * ClickStack's `/v1/.../clickstack/dashboards`). The clients pass the profiles that read another path, so
 * nothing here knows a profile by name.
 */
import { NotFoundError } from './errors.ts';

export interface HintProfile {
  api: string;
  title: string;
  /** What else the connection needs under that profile, for people ("keyId, keySecret, ..."). */
  needs?: string;
}

export interface ProfileHintOptions {
  /** The setting that chooses the profile: `cloud.api`, `observability.api`. */
  setting: string;
  /** Where it is set, or would go (`steward.yaml:5:3`); undefined when unknown. */
  where: string | undefined;
  current: HintProfile;
  /** The profiles that would read another path here. */
  others: readonly HintProfile[];
}

/** One clause for the end of a 404's message, or undefined when no other profile reads another path. */
export function profileHint(o: ProfileHintOptions): string | undefined {
  if (o.others.length === 0) return undefined;
  const choices = o.others.map((p) => `\`${o.setting}: ${p.api}\` for ${p.title}${p.needs ? ` (with ${p.needs})` : ''}`).join(', or ');
  return `the server does not speak ${o.current.title} at this path (${o.setting}: ${o.current.api}); set ${choices} in ${o.where ?? 'steward.yaml'}, or check the URL and ids`;
}

/** `e` with the hint at the end of its message when it is a 404; any other error as it is. */
export function notFoundHint(e: unknown, hint: string | undefined): unknown {
  if (!(e instanceof NotFoundError) || hint === undefined) return e;
  return new NotFoundError(`${e.message}; ${hint}`, {
    method: e.method,
    path: e.path,
    host: e.host,
    status: e.status,
    serverMessage: e.serverMessage,
    requestId: e.requestId,
    outcomeUnknown: e.outcomeUnknown,
    attempts: e.attempts,
    exitCode: e.exitCode,
    cause: e.cause,
  });
}
