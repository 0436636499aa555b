/**
 * Template expansion: the pure stage between loading and everything that plans. Templates and their
 * instances go in; the dashboards and alerts they stamp come out, named `<template>/<key>` (and
 * `<template>/<key>/<entry>` when a template holds several of a kind), next to the hand-written resources.
 *
 * Problems are returned located by document and JSON pointer, like checkSemantics' (the caller turns them
 * into file:line:col): a parameter problem at the instance, a schema problem of a stamped document at the
 * template node that produced it, with the instance that stamped it as the related place.
 */
import type { AnyResource, Resource } from '../model/resource.ts';
import { didYouMean, hintBudget, type HintBudget } from '../schema/did-you-mean.ts';
import { listSome } from '../shared/text.ts';
import type { StewardTemplate } from '../schema/kinds.ts';
import type { SemanticProblem } from '../schema/semantic.ts';
import { validateKind } from '../schema/validator.ts';
import { quote, scanReferences, type Token } from './references.ts';
import { MAX_STAMPED_SIZE, StampBudgetExceeded, stampValue } from './stamp.ts';
import { escapeSegment as esc } from '../shared/pointer.ts';

export type StampedKind = 'Dashboard' | 'Alert';
type Param = NonNullable<NonNullable<StewardTemplate['spec']['parameters']>[string]>;
type Value = string | number | Array<string | number>;
type Entry = NonNullable<StewardTemplate['spec']['dashboards']>[number];

/** Where a stamped resource came from. */
export interface Origin {
  kind: StampedKind;
  /** The stamped resource's name (`jvm-runtime/checkout`). */
  name: string;
  /** The template, and the pointer of the entry (`/spec/dashboards/0`) the resource was stamped from. */
  template: { name: string; file: string; index: number; entry: string };
  /** The instance, and the pointer of the item (`/spec/forEach/2`, `/spec/parameters` or `/spec`). */
  instance: { name: string; file: string; index: number; item: string };
}

export interface Expansion {
  /** Every resource but templates and instances, then the stamped ones (valid documents only). */
  resources: AnyResource[];
  problems: SemanticProblem[];
  /**
   * Stamped resources carry their instance's file and a negative `index` unique to them (no document of a
   * file has it): this map, keyed by `originKey(file, index)`, says where their parts came from.
   */
  origins: Map<string, Origin>;
}

export const originKey = (file: string, index: number): string => `${file}\u0000${index}`;

/** The pointer, inside the template document, of the node that produced `pointer` of a stamped document. */
export function templatePointer(origin: Origin, pointer: string): string {
  const segs = pointer.split('/').slice(1);
  if (segs[0] === 'spec') return `${origin.template.entry}${pointer}`;
  if (segs[0] === 'metadata' && segs[1] !== undefined && segs[1] !== 'name') return `${origin.template.entry}${pointer}`;
  if (segs[0] === 'metadata' && segs[1] === 'name') return `${origin.template.entry}/name`;
  return origin.template.entry;
}

const NAME = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/;
const KINDS: Array<[StampedKind, 'dashboards' | 'alerts', string]> = [
  ['Dashboard', 'dashboards', 'dashboard'],
  ['Alert', 'alerts', 'alert'],
];

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  if (typeof v === 'string') return `the string ${quote(v)}`;
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${String(v)}`;
}

/** Why a value does not fit a parameter, or undefined. */
function typeProblem(p: Param, v: unknown, hints: HintBudget): string | undefined {
  switch (p.type) {
    case 'string':
      return typeof v === 'string' ? undefined : `must be a string, found ${describe(v)}`;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : `must be a number, found ${describe(v)}`;
    case 'list':
      return Array.isArray(v) ? undefined : `must be a list, found ${describe(v)}`;
    case 'enum': {
      const values = p.values ?? [];
      if (values.some((x) => x === v)) return undefined;
      // The values are listed (and compared) per wrong item: a long enum and many items must not multiply.
      const hint = typeof v === 'string' && hints.cells > 0 ? didYouMean(v, values.map(String), hints) : undefined;
      const shown = values.slice(0, 10).map((x) => JSON.stringify(x));
      if (values.length > 10) shown.push(`… and ${values.length - 10} more`);
      return `must be one of ${shown.join(', ')}, found ${describe(v)}${hint ? `; did you mean "${hint}"?` : ''}`;
    }
  }
}

interface CheckedTemplate {
  t: Resource<'Template'>;
  params: Record<string, Param>;
  /** Each entry's references, by the pointer of the string that holds them. */
  tokens: Map<string, Token[]>;
  ok: boolean;
  used: boolean;
}

/** Load-time checks of a template on its own: defaults, key, entry names, every reference. */
function checkTemplate(t: Resource<'Template'>, out: SemanticProblem[], hints: HintBudget): CheckedTemplate {
  const before = out.length;
  const err = (pointer: string, message: string, atKey = false, offset?: number) =>
    out.push({ file: t.file, index: t.index, pointer, atKey, message, severity: 'error', ...(offset !== undefined ? { offset } : {}) });
  const spec = t.doc.spec;
  const params = Object.fromEntries(Object.entries(spec.parameters ?? {}).filter((e): e is [string, Param] => e[1] !== undefined));
  for (const [name, p] of Object.entries(params)) {
    const at = `/spec/parameters/${esc(name)}`;
    if (p.values !== undefined && p.type !== 'enum') err(`${at}/values`, `values are for enum parameters; "${name}" is a ${p.type}`, true);
    if (p.default !== undefined) {
      const why = typeProblem(p, p.default, hints);
      if (why) err(`${at}/default`, `default of parameter "${name}" ${why}`);
    }
  }
  if (spec.key !== undefined) {
    const k = params[spec.key];
    if (!k) err('/spec/key', `key names parameter "${spec.key}", which the template does not declare${hintOf(spec.key, Object.keys(params), hints)}`);
    else if (k.type !== 'string' && k.type !== 'enum')
      err('/spec/key', `key parameter "${spec.key}" is a ${k.type}; the key names each stamp, so it must be a string or an enum`);
  }
  if (!spec.dashboards?.length && !spec.alerts?.length) err('/spec', 'the template stamps nothing: give it dashboards or alerts');
  for (const [, list, word] of KINDS) {
    const entries = spec[list] ?? [];
    const seen = new Map<string, number>();
    entries.forEach((e, i) => {
      if (entries.length > 1 && e.name === undefined)
        err(`/spec/${list}/${i}`, `this template holds ${entries.length} ${list}: give each a name (the stamped ${word} is named <template>/<key>/<name>)`);
      if (e.name !== undefined) {
        const first = seen.get(e.name);
        if (first !== undefined) err(`/spec/${list}/${i}/name`, `two ${list} of this template are named "${e.name}" (also ${list} ${first})`);
        else seen.set(e.name, i);
      }
    });
  }

  const tokens = new Map<string, Token[]>();
  const declared = Object.keys(params);
  const walk = (v: unknown, pointer: string) => {
    if (typeof v === 'string') {
      const found = scanReferences(v);
      if (found.length === 0) return;
      tokens.set(pointer, found);
      const whole = found.length === 1 && found[0]!.start === 0 && found[0]!.end === v.length;
      for (const tok of found) {
        if (tok.type === 'bad') err(pointer, tok.message, false, tok.start);
        if (tok.type !== 'ref') continue;
        if (tok.ns === 'self' && tok.name !== 'key' && tok.name !== 'name')
          err(pointer, `unknown reference $(self.${tok.name}): self has key and name`, false, tok.start);
        if (tok.ns !== 'params') continue;
        const p = params[tok.name];
        if (!p) err(pointer, `unknown parameter "${tok.name}" in $(params.${tok.name})${hintOf(tok.name, declared, hints)}`, false, tok.start);
        else if (p.type === 'list' && !whole)
          err(pointer, `$(params.${tok.name}) is a list: it can only stand alone as a whole value, not inside text`, false, tok.start);
      }
      return;
    }
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${pointer}/${i}`));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('$(')) err(`${pointer}/${esc(k)}`, `references are not expanded in keys: ${quote(k)}`, true);
        walk(x, `${pointer}/${esc(k)}`);
      }
    }
  };
  for (const [, list] of KINDS) (spec[list] ?? []).forEach((e, i) => walk({ metadata: e.metadata, spec: e.spec }, `/spec/${list}/${i}`));
  return { t, params, tokens, ok: out.length === before, used: false };
}

function hintOf(word: string, candidates: readonly string[], hints: HintBudget): string {
  const h = didYouMean(word, candidates, hints);
  return h ? `; did you mean "${h}"?` : candidates.length ? ` (parameters: ${listSome(candidates)})` : ' (it declares no parameters)';
}

/**
 * The most resources all TemplateInstances of a project may stamp: ten times the 10,000 dashboards steward
 * is measured at (bench/), far beyond any real fan-out, and far below what exhausts memory.
 */
export const MAX_STAMPED = 100_000;

/**
 * Expands every TemplateInstance. Pure: resources in; resources, problems and origins out. Templates that
 * fail their own checks stamp nothing (their instances are not checked either: one cause, one message).
 */
export function expandTemplates(resources: readonly AnyResource[]): Expansion {
  const problems: SemanticProblem[] = [];
  const out: AnyResource[] = [];
  const templates = new Map<string, CheckedTemplate>();
  const instances: Array<Resource<'TemplateInstance'>> = [];
  // One budget for every hint of the expansion, and lists of names cut short: a file of instances naming
  // unknown templates (or parameters) would otherwise cost names × instances, in time and in message text.
  const hints = hintBudget();
  for (const r of resources) {
    if (r.kind === 'Template') {
      const first = templates.get(r.name);
      if (first) {
        problems.push({
          file: r.file,
          index: r.index,
          pointer: '/metadata/name',
          severity: 'error',
          message: `duplicate Template "${r.name}": metadata.name must be unique per kind`,
          related: { file: first.t.file, index: first.t.index, pointer: '/metadata/name' },
        });
      } else templates.set(r.name, checkTemplate(r, problems, hints));
    } else if (r.kind === 'TemplateInstance') instances.push(r);
    else out.push(r);
  }
  const origins = new Map<string, Origin>();
  let nextIndex = -1;
  const instanceNames = new Map<string, Resource<'TemplateInstance'>>();
  let stamped = 0;
  const size = { left: MAX_STAMPED_SIZE };
  const templateNames = [...templates.keys()];

  for (const inst of instances) {
    const iErr = (pointer: string, message: string, atKey = false) =>
      problems.push({ file: inst.file, index: inst.index, pointer, atKey, message, severity: 'error' });
    const dup = instanceNames.get(inst.name);
    if (dup) {
      problems.push({
        file: inst.file,
        index: inst.index,
        pointer: '/metadata/name',
        severity: 'error',
        message: `duplicate TemplateInstance "${inst.name}": metadata.name must be unique per kind`,
        related: { file: dup.file, index: dup.index, pointer: '/metadata/name' },
      });
      continue;
    }
    instanceNames.set(inst.name, inst);
    const spec = inst.doc.spec;
    const ct = templates.get(spec.template);
    if (!ct) {
      const hint = didYouMean(spec.template, templateNames, hints);
      iErr(
        '/spec/template',
        `unknown template "${spec.template}": no Template has that metadata.name${hint ? `; did you mean "${hint}"?` : templates.size ? ` (templates: ${listSome(templateNames)})` : ''}`,
      );
      continue;
    }
    ct.used = true;
    if (!ct.ok) continue;
    const tspec = ct.t.doc.spec;
    const declared = Object.keys(ct.params);
    const shared = spec.parameters ?? {};
    const sharedPtr = (name: string) => `/spec/parameters/${esc(name)}`;
    const unknown = (values: Record<string, unknown>, ptr: (n: string) => string) => {
      for (const name of Object.keys(values)) {
        if (!ct.params[name]) iErr(ptr(name), `template "${ct.t.name}" has no parameter "${name}"${hintOf(name, declared, hints)}`, true);
      }
    };
    unknown(shared, sharedPtr);
    if (spec.forEach && tspec.key === undefined) {
      iErr(
        '/spec/forEach',
        `template "${ct.t.name}" declares no key (spec.key), so the stamps of a forEach would all have one name: give the template a key parameter`,
        true,
      );
      continue;
    }
    // Two small files can ask for millions of stamps (1,000 entries × 10,000 items): counted before any is
    // made, and refused beyond the budget rather than running out of memory.
    const perItem = KINDS.reduce((n, [, list]) => n + (tspec[list]?.length ?? 0), 0);
    const wanted = perItem * (spec.forEach ? spec.forEach.length : 1);
    if (stamped + wanted > MAX_STAMPED) {
      iErr(
        spec.forEach ? '/spec/forEach' : '/spec/template',
        `this instance would stamp ${wanted.toLocaleString('en-US')} resources (${perItem} per item of template "${ct.t.name}" × ${spec.forEach ? spec.forEach.length : 1}), ${stamped > 0 ? `after ${stamped.toLocaleString('en-US')} stamped by other instances; ` : ''}templates stamp at most ${MAX_STAMPED.toLocaleString('en-US')} resources in a project`,
        true,
      );
      continue;
    }
    stamped += wanted;
    // Shared values are checked once, not once per item.
    const reported = new Set<string>();
    const items = spec.forEach
      ? spec.forEach.map((over, i) => ({ over: over as Record<string, unknown>, pointer: `/spec/forEach/${i}` }))
      : [{ over: {} as Record<string, unknown>, pointer: spec.parameters ? '/spec/parameters' : '/spec' }];
    const first = out.length;
    const sizeBefore = MAX_STAMPED_SIZE - size.left;
    try {
      for (const item of items) {
        const itemPtr = (name: string) => `${item.pointer}/${esc(name)}`;
        if (spec.forEach) unknown(item.over, itemPtr);
        const values: Record<string, Value> = {};
        let ok = true;
        for (const [name, p] of Object.entries(ct.params)) {
          const own = Object.prototype.hasOwnProperty.call(item.over, name);
          const v = own ? item.over[name] : shared[name];
          if (v === undefined) {
            if (p.default === undefined) {
              ok = false;
              iErr(item.pointer, `missing parameter "${name}" of template "${ct.t.name}" (${p.type}${p.description ? `: ${p.description}` : ''})`);
            } else values[name] = structuredClone(p.default);
            continue;
          }
          const why = typeProblem(p, v, hints);
          if (why) {
            ok = false;
            const at = own ? itemPtr(name) : sharedPtr(name);
            if (!reported.has(at)) iErr(at, `parameter "${name}" of template "${ct.t.name}" ${why}`);
            reported.add(at);
            continue;
          }
          values[name] = v as Value;
        }
        if (!ok) continue;
        let key = inst.name;
        if (tspec.key !== undefined) {
          key = String(values[tspec.key]);
          if (!NAME.test(key) || key.length > 100) {
            const own = Object.prototype.hasOwnProperty.call(item.over, tspec.key);
            iErr(
              own ? itemPtr(tspec.key) : Object.prototype.hasOwnProperty.call(shared, tspec.key) ? sharedPtr(tspec.key) : item.pointer,
              `${JSON.stringify(key)} cannot name a stamp (it is the template's key, ${tspec.key}): use lowercase letters, digits, '.', '_' and '-', starting and ending with a letter or digit`,
            );
            continue;
          }
        }
        const base = `${ct.t.name}/${key}`;
        const value = (ns: 'params' | 'self', name: string): unknown => (ns === 'params' ? values[name] : name === 'key' ? key : base);
        for (const [kind, list] of KINDS) {
          (tspec[list] ?? []).forEach((entry: Entry, i) => {
            const entryPtr = `/spec/${list}/${i}`;
            const name = entry.name !== undefined ? `${base}/${entry.name}` : base;
            const stamped = stampValue({ metadata: entry.metadata, spec: entry.spec }, entryPtr, ct.tokens, value, size) as {
              metadata?: Record<string, unknown>;
              spec: unknown;
            };
            const doc = { apiVersion: 'steward/v1', kind, metadata: { name, ...(stamped.metadata ?? {}) }, spec: stamped.spec };
            const index = nextIndex--;
            const origin: Origin = {
              kind,
              name,
              template: { name: ct.t.name, file: ct.t.file, index: ct.t.index, entry: entryPtr },
              instance: { name: inst.name, file: inst.file, index: inst.index, item: item.pointer },
            };
            // The stamped name holds "/", which a hand-written metadata.name may not: check the rest.
            const schemaProblems = validateKind(kind, { ...doc, metadata: { ...doc.metadata, name: 'stamp' } });
            for (const p of schemaProblems) {
              problems.push({
                file: ct.t.file,
                index: ct.t.index,
                pointer: templatePointer(origin, p.pointer),
                atKey: p.atKey,
                severity: 'error',
                message: `${p.message} (in ${kind} ${name}, a stamp of template ${ct.t.name})`,
                related: { file: inst.file, index: inst.index, pointer: item.pointer },
                relatedLabel: 'stamped by',
              });
            }
            if (schemaProblems.length > 0) return;
            origins.set(originKey(inst.file, index), origin);
            out.push({ kind, name, file: inst.file, index, doc } as AnyResource);
          });
        }
      }
    } catch (e) {
      if (!(e instanceof StampBudgetExceeded)) throw e;
      // Nothing of an instance over the budget is kept: one problem, at the instance.
      for (const r of out.splice(first)) origins.delete(originKey(r.file, r.index));
      size.left = MAX_STAMPED_SIZE - sizeBefore;
      iErr(
        spec.forEach ? '/spec/forEach' : '/spec/template',
        `this instance would stamp more than ${MAX_STAMPED_SIZE / 1048576} MiB of documents (as JSON text)${sizeBefore > 0 ? `, after ${(sizeBefore / 1048576).toFixed(1)} MiB stamped by other instances` : ''}: templates stamp at most that in a project (a list parameter used in many places, or a large template stamped for many items)`,
        true,
      );
    }
  }
  for (const ct of templates.values()) {
    if (!ct.used)
      problems.push({
        file: ct.t.file,
        index: ct.t.index,
        pointer: '/metadata/name',
        severity: 'warning',
        message: `template "${ct.t.name}" is never used: no TemplateInstance names it`,
      });
  }
  return { resources: out, problems, origins };
}
