/**
 * What the live APIs refuse in a dashboard's filters beyond their schema: HyperDX 2026-08's FilterInput says it
 * in prose ("the field is rejected when isVariableEnabled is not true", "a non-empty array is rejected when
 * isBroadcastEnabled is false", "Variable names must be unique", a name that "derives nothing usable must send
 * this field explicitly") and its server refuses each with a 400 (validateDashboardFilterFieldGating, -Modes,
 * -VariableNames). It also refuses a filter that neither broadcasts nor is a variable, which the spec leaves
 * open ("typically a filter should do just one of these things"): a warning. Pure.
 */
import type { LocalProblem } from '../model/resource.ts';

interface FilterLike {
  name?: unknown;
  variableName?: unknown;
  isVariableEnabled?: unknown;
  isBroadcastEnabled?: unknown;
  appliesToSourceIds?: unknown;
}

/** HyperDX's deriveVariableName: the display name with whitespace as `_`, other illegal characters removed. */
function derivedVariableName(name: string): string {
  const s = name
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_]+/g, '');
  return /^[0-9_]/.test(s) ? `v${s}` : s;
}

/**
 * HyperDX 2026-08's filter members that ClickStack's filter (ClickStackFilterInput and ClickStackFilter,
 * ClickHouse Cloud spec 2026-07-31 and 2026-04-14) does not have: no variables, no broadcast switch there.
 */
const CLICKSTACK_UNKNOWN_FILTER_MEMBERS = ['isBroadcastEnabled', 'isVariableEnabled', 'variableName'] as const;

export function filterProblems(filters: readonly unknown[] | undefined, api: string): LocalProblem[] {
  const out: LocalProblem[] = [];
  const variables = new Map<string, number>();
  (filters ?? []).forEach((raw, i) => {
    if (!raw || typeof raw !== 'object') return;
    const f = raw as FilterLike;
    const name = typeof f.name === 'string' ? f.name : '';
    const at = (k: string) => `/spec/filters/${i}/${k}`;
    if (api === 'clickstack-cloud') {
      // Sent anyway, a member the API does not define is dropped or refused: a variable the tiles name would not
      // exist, and the filter would plan as drift after every apply. The modes below are HyperDX's.
      for (const k of CLICKSTACK_UNKNOWN_FILTER_MEMBERS)
        if ((f as Record<string, unknown>)[k] !== undefined)
          out.push({
            pointer: at(k),
            severity: 'error',
            message: `filter "${name}" sets ${k}, which the ClickStack API's filters do not have (ClickHouse Cloud spec 2026-07-31: no variables, every filter broadcasts): leave it out, or use observability.api: hyperdx`,
          });
      return;
    }
    const variable = f.isVariableEnabled === true;
    const broadcast = f.isBroadcastEnabled !== false;
    if (f.variableName !== undefined && !variable)
      out.push({
        pointer: at('variableName'),
        severity: 'error',
        message: `filter "${name}" sets variableName but is not a variable; the ${api} API refuses it: set isVariableEnabled: true, or leave variableName out`,
      });
    if (Array.isArray(f.appliesToSourceIds) && f.appliesToSourceIds.length > 0 && !broadcast)
      out.push({
        pointer: at('appliesToSourceIds'),
        severity: 'error',
        message: `filter "${name}" sets appliesToSourceIds but does not broadcast its value; the ${api} API refuses it: leave isBroadcastEnabled out (or true), or leave appliesToSourceIds out`,
      });
    // A warning: the spec only says a filter "typically" does one of the two; the server refuses neither.
    if (!broadcast && !variable)
      out.push({
        pointer: at('isBroadcastEnabled'),
        severity: 'warning',
        message: `filter "${name}" neither broadcasts its value nor is a variable, and HyperDX's server refuses a filter that does nothing (the spec does not say so): set isVariableEnabled: true, or leave isBroadcastEnabled out`,
      });
    if (!variable) return;
    const explicit = typeof f.variableName === 'string' ? f.variableName.trim() : '';
    const token = explicit || derivedVariableName(name);
    if (token === '') {
      out.push({
        pointer: at('name'),
        severity: 'error',
        message: `filter "${name}" is a variable, and no variable name can be made from its name; the ${api} API needs one: give variableName`,
      });
      return;
    }
    const first = variables.get(token);
    if (first !== undefined)
      out.push({
        pointer: at(explicit ? 'variableName' : 'name'),
        severity: 'error',
        message: `filter "${name}" is the variable $${token}, as filter ${first} is; the ${api} API takes each variable name once: give variableName`,
      });
    else variables.set(token, i);
  });
  return out;
}
