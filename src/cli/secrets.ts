/**
 * The CLI's output sink: every credential value in play, redacted from everything steward prints or
 * writes. One list per run: it starts with the default credential variables' values and grows when a
 * command loads a project that names others (`add`).
 */
import { createRedactor } from '../clients/redact.ts';
import { credentialValues, credentialVariables, DEFAULT_CREDENTIAL_VARIABLES } from '../config/credentials.ts';
import type { Env } from '../config/interpolate.ts';

export interface SecretSink {
  /** Adds values that must not appear in any output from now on. */
  add(values: readonly string[]): void;
  /** Adds the values of every credential variable a project spec names. */
  addProject(spec: unknown): void;
  /** The text with every known credential, in every encoding, replaced by the one marker. */
  redact(text: string): string;
}

export function createSecretSink(env: Env): SecretSink {
  const values = new Set<string>(credentialValues(DEFAULT_CREDENTIAL_VARIABLES, env));
  // Values only: credential-shaped text is masked where it is made (the clients' traces and errors).
  let redactor = createRedactor([...values], { patterns: false });
  const add = (more: readonly string[]) => {
    let changed = false;
    for (const v of more) {
      if (v && !values.has(v)) {
        values.add(v);
        changed = true;
      }
    }
    if (changed) redactor = createRedactor([...values], { patterns: false });
  };
  return {
    add,
    addProject: (spec) => add(credentialValues(credentialVariables(spec), env)),
    redact: (text) => redactor(text),
  };
}
