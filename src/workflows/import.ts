/**
 * The import workflow: read the live dashboards (and alerts, where the service lists them), and write the
 * files that declare them: a file that declares one already is rewritten in place (metadata and comments
 * kept), others get new files. It returns one line per object; `steward import` prints them.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyIfMissing } from '../clients/errors.ts';
import { CliError, UsageError, ValidationError } from '../errors.ts';
import { markerTagIssue, resourcePattern } from '../config/project.ts';
import { escapeTerminal, shownId } from '../render/escape.ts';
import { foldPath } from '../shared/path-fold.ts';
import { makeFolderInside, schemaModelinePath } from '../shared/paths.ts';
import type { WorkflowDeps } from './deps.ts';
import { pushAll } from '../shared/arrays.ts';
import { canonicalJson } from '../plan/fingerprint.ts';
import { packageFile } from '../shared/package-root.ts';

export interface ImportOptions {
  all: boolean;
  name?: string[] | undefined;
  id?: string[] | undefined;
  /** Folder for new files (relative to cwd); every chosen dashboard is then written there as a new file. */
  out?: string | undefined;
  force: boolean;
  config?: string | undefined;
  /** The environment overlay (--env). */
  env?: string | undefined;
}

export interface ImportDeps extends WorkflowDeps {
  /** Every string of a value with the credentials in play replaced: for server data turned into files. */
  redactValue<T>(value: T): T;
  /** A finished text with the credentials in play replaced. */
  redactText(text: string): string;
  /** Takes the lock apply takes beside the state file; the caller releases it however the command ends. */
  lock(statePath: string): Promise<unknown>;
}

export interface ImportResult {
  /** One line per object chosen: `+` written, `~` rewritten in place, `=` unchanged or not a file's, `-` skipped or refused. */
  lines: string[];
  written: number;
  /** Dashboards and alerts chosen. */
  total: number;
  alerts: number;
  /** The profile lists alerts (they were read, and imported with --all). */
  readsAlerts: boolean;
  /** Something chosen was skipped or refused (exit 1). */
  failed: boolean;
  /** New files (relative to the project, `/`-separated) that no pattern of spec.resources reads. */
  unread: string[];
  /**
   * With --out: new files spec.resources reads whose dashboard or alert a project file already declares
   * (relative to the project, `/`-separated): validate refuses the project until one of the two goes.
   */
  repeats: Array<{ file: string; declaredIn: string }>;
}

const SCHEMA = fileURLToPath(packageFile('schemas/dashboard.schema.json'));
const ALERT_SCHEMA = fileURLToPath(packageFile('schemas/alert.schema.json'));

export async function makeImport(deps: ImportDeps, options: ImportOptions): Promise<ImportResult> {
  const selectors = (options.all ? 1 : 0) + (options.name?.length ? 1 : 0) + (options.id?.length ? 1 : 0);
  if (selectors === 0) throw new UsageError('say what to import: --all, --name NAME or --id ID');
  const [
    { nodeFileSystem },
    { loadWorkspace },
    { renderDashboardYaml, fileKey, SAFE_ID, tileNameProblem },
    { writeFileAtomic },
    { processFile },
    { checkSemantics },
  ] = await Promise.all([
    import('../config/fs.ts'),
    import('../config/load.ts'),
    import('../render/dashboard-yaml.ts'),
    import('../atomic-write.ts'),
    import('../config/resources.ts'),
    import('../schema/semantic.ts'),
  ]);
  const loaded = await loadWorkspace(
    { fs: nodeFileSystem, env: deps.env, cwd: deps.cwd, signal: deps.signal },
    { config: options.config, envName: options.env, requireProject: true },
  );
  const project = loaded.project!;
  const marker = markerTagIssue(project);
  if (marker) throw new ValidationError([{ ...marker, file: relative(deps.cwd, marker.file) || marker.file }]);
  const client = deps.connect(project).observability();
  // What a server echoes of a credential never reaches a file name or a file.
  const live = deps.redactValue(await client.listDashboards({ signal: deps.signal }));
  // Where the service speaks the config form and lists sources, files get configs with source names.
  const { OBSERVABILITY_PROFILES } = await import('../clients/profiles.ts');
  const caps = OBSERVABILITY_PROFILES[project.spec.observability?.api ?? 'seed'].capabilities;
  let sourceNames: Map<string, string> | undefined;
  if (caps.listSources) {
    // An entry without an id or a name (a source's id is optional in 2026-08) names nothing.
    const sources = (await emptyIfMissing(client.listSources({ signal: deps.signal }))).filter(
      (s): s is typeof s & { id: string; name: string } => typeof s.id === 'string' && typeof s.name === 'string',
    );
    const count = new Map<string, number>();
    for (const s of sources) count.set(s.name, (count.get(s.name) ?? 0) + 1);
    // A name two sources share would not resolve back: those stay ids.
    sourceNames = new Map(sources.filter((s) => count.get(s.name) === 1).map((s) => [s.id, s.name]));
  }

  // Where the service lists alerts, they are imported too: --all, or by id or name.
  const liveAlerts = caps.readAlerts ? deps.redactValue(await client.listAlerts({ signal: deps.signal })) : [];
  let chosen = options.all ? [...live] : [];
  let chosenAlerts = options.all ? [...liveAlerts] : [];
  const what = caps.readAlerts ? 'dashboard or alert' : 'dashboard';
  for (const id of options.id ?? []) {
    const d = live.find((l) => l.id === id);
    const a = liveAlerts.find((l) => l.id === id);
    if (!d && !a) throw new CliError(`no live ${what} has id ${id}`, { code: 'api-not-found' });
    if (d) chosen.push(d);
    if (a) chosenAlerts.push(a);
  }
  for (const name of options.name ?? []) {
    const ds = live.filter((l) => l.name === name);
    const as = liveAlerts.filter((l) => l.name === name);
    if (ds.length === 0 && as.length === 0) throw new CliError(`no live ${what} is named "${name}"`, { code: 'api-not-found' });
    pushAll(chosen, ds);
    pushAll(chosenAlerts, as);
  }
  chosen = [...new Map(chosen.map((d) => [d.id, d])).values()];
  chosenAlerts = [...new Map(chosenAlerts.map((a) => [a.id, a])).values()];

  const outDir = resolve(options.out ? deps.cwd : project.dir, options.out ?? 'dashboards');
  // Files are written under the lock apply takes (released by main however the command ends).
  await deps.lock(project.statePath);
  makeFolderInside(options.out ? deps.cwd : project.dir, outDir, 'dashboards');
  const schemaPath = schemaModelinePath(SCHEMA, outDir, project.dir);
  // Keep the names files already use: a dashboard declared in a file keeps its metadata.name. A template's
  // stamp (negative index, named <template>/<key>) is no file's: it is written under a name of its own.
  const declared = new Map(
    loaded.resources.filter((r) => r.kind === 'Dashboard' && r.index >= 0).map((r) => [r.kind === 'Dashboard' ? r.doc.spec.name : '', r.name]),
  );
  const taken = new Set(loaded.resources.filter((r) => r.kind === 'Dashboard').map((r) => r.name));
  // Files a new file never replaces, --force or not: every file the project loaded (each declares some of its
  // resources; replacing one would lose them, and plan --prune would then delete them live) and every file
  // this import writes (a dashboard and an alert of one name in one --out folder); nor the state, its lock or
  // the journal. Folded (path-fold.ts): on macOS and Windows team.yaml is Team.yaml, and NFC is NFD on macOS.
  const claimKey = (f: string): string => foldPath(resolve(f));
  const projectFiles = new Set(loaded.files.map(claimKey));
  const claimed = new Set(
    [
      project.statePath,
      `${project.statePath}.lock`,
      project.journalPath,
      // Another environment's too: a state named .steward/state.yaml is not this run's, but is someone's.
      ...(project.otherStateFiles ?? []).flatMap((o) => (o.what === 'state' ? [o.path, `${o.path}.lock`] : [o.path])),
    ].map(claimKey),
  );
  /** Whether a new file may take `dir/key.yaml`: never one this run wrote; a project file only for its own resource (`own`: then it is skipped, or replaced with --force, as before). */
  const freeFile = (dir: string, key: string, own: boolean): boolean => {
    const k = claimKey(join(dir, `${key}.yaml`));
    return !claimed.has(k) && (own || !projectFiles.has(k));
  };
  const nameCount = new Map<string, number>();
  for (const d of live) nameCount.set(d.name, (nameCount.get(d.name) ?? 0) + 1);

  let written = 0;
  const fresh: string[] = []; // the new files written (not those rewritten in place)
  const copyOf = new Map<string, string>(); // --out: a new file → the project file that declares its resource
  let refusedIds = 0;
  const lines: string[] = [];
  const { declaringResource, rewriteDeclaring } = await import('./import-rewrite.ts');
  // Live dashboard id → the metadata.name a file gives it (declared, or written by this import).
  const dashboardKey = new Map<string, string>();
  for (const d of live) if (declared.has(d.name) && (nameCount.get(d.name) ?? 0) === 1) dashboardKey.set(d.id, declared.get(d.name)!);
  // What this import accepted, so an imported alert's reference to an imported dashboard resolves when it is checked.
  const accepted: ReturnType<typeof processFile>['resources'] = [];
  for (const d of chosen) {
    // A live id is written into the file (a comment, metadata.id): one of another shape is refused.
    if (typeof d.id !== 'string' || !SAFE_ID.test(d.id)) {
      lines.push(
        escapeTerminal(
          `  - refused "${d.name}": its id ${typeof d.id === 'string' ? JSON.stringify(shownId(d.id)) : JSON.stringify(d.id)} is not the shape of an id (it holds control characters or line breaks, or is empty or over 256 characters), so it is not written into a file`,
        ),
      );
      refusedIds++;
      continue;
    }
    // Declared in a file already: that file is rewritten in place, never a second file beside it (unless
    // --out names a folder for copies).
    const declaring = options.out === undefined ? declaringResource(loaded.resources, d, nameCount) : undefined;
    if (declaring && declaring.index < 0) {
      // Stamped from a template (src/templates/): no file of its own to rewrite; the template or the instance says what it is.
      dashboardKey.set(d.id, declaring.name);
      lines.push(
        escapeTerminal(
          `  = "${d.name}" (${d.id}) is ${declaring.name}, stamped from a template by ${relative(deps.cwd, declaring.file) || declaring.file}: change the template or the instance (steward render shows what it stamps); --out DIR writes a copy`,
        ),
      );
      continue;
    }
    const tileProblem = tileNameProblem(d);
    if (tileProblem) {
      lines.push(escapeTerminal(`  - skipped "${d.name}" (${d.id}): ${tileProblem}`));
      continue;
    }
    if (declaring) {
      const shown = relative(deps.cwd, declaring.file) || declaring.file;
      dashboardKey.set(d.id, declaring.name);
      const r = rewriteDeclaring({
        resource: declaring,
        live: d,
        project,
        env: deps.env,
        redactValue: (v) => deps.redactValue(v),
        render: (l, metadataName) =>
          renderDashboardYaml(l, {
            metadataName,
            markerTag: project.markerTag,
            schemaPath,
            pinId: false,
            configForm: caps.tileConfig,
            ...(sourceNames ? { sourceNames } : {}),
          }),
        ...(sourceNames ? { sourceNames } : {}),
      });
      if (r.changed === 0) {
        lines.push(escapeTerminal(`  = ${shown}  already matches "${d.name}" (${d.id})`));
        continue;
      }
      writeFileAtomic(r.file, deps.redactText(r.text));
      written++;
      lines.push(
        escapeTerminal(`  ~ ${shown}  ← "${d.name}" (${d.id}): ${r.changed} field${r.changed === 1 ? '' : 's'} rewritten in place, metadata and comments kept`),
      );
      for (const w of r.warnings) lines.push(`      warning: ${escapeTerminal(w)}`);
      continue;
    }
    let key = fileKey(declared.get(d.name), d.name);
    const ownName = key === declared.get(d.name) && (nameCount.get(d.name) ?? 0) <= 1;
    const base = key;
    for (let i = 2; (!ownName && taken.has(key)) || !freeFile(outDir, key, ownName); i++) key = `${base}-${i}`;
    taken.add(key);
    const file = join(outDir, `${key}.yaml`);
    // The key is [a-z0-9-] only, so this cannot leave the folder; checked anyway.
    if (dirname(file) !== outDir) throw new CliError(`refusing to write outside ${outDir}: ${file}`);
    const rendered = renderDashboardYaml(d, {
      metadataName: key,
      markerTag: project.markerTag,
      schemaPath,
      pinId: (nameCount.get(d.name) ?? 0) > 1,
      configForm: caps.tileConfig,
      ...(sourceNames ? { sourceNames } : {}),
    });
    // A server may echo a credential into a name: the file gets what every output gets.
    const text = deps.redactText(rendered.text);
    const warnings = rendered.warnings;
    const check = processFile(file, Buffer.from(text), {}, { isProjectFile: false });
    // What steward's schema or the profile's own checks refuse (a live dashboard with 50 tags leaves no room
    // for the marker tag; a ClickStack select longer than HyperDX allows) is not written: a file steward
    // itself would refuse is no adoption. Said per dashboard, the others are imported, exit 1.
    const errors = check.issues.filter((i) => i.severity === 'error');
    const refused = errors.length
      ? `${errors[0]!.pointer ? `${errors[0]!.pointer}: ` : ''}${errors[0]!.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`
      : checkSemantics(check.resources, { api: project.spec.observability?.api }).find((p) => p.severity === 'error')?.message;
    if (refused) {
      lines.push(escapeTerminal(`  - skipped "${d.name}" (${d.id}): ${refused}`));
      continue;
    }
    dashboardKey.set(d.id, key); // only now: an alert on a skipped dashboard says so, not "unknown dashboard <key>"
    // The file must read back as exactly the one Dashboard meant, nothing more (no injected document).
    const back = check.resources;
    if (back.length !== 1 || back[0]!.kind !== 'Dashboard' || canonicalJson(back[0]!.doc) !== canonicalJson(rendered.value)) {
      throw new CliError(
        `refusing to write ${relative(deps.cwd, file) || file}: it would not read back as exactly the dashboard "${escapeTerminal(d.name)}" (${escapeTerminal(d.id)}); this is a bug in steward, please report it`,
      );
    }
    pushAll(accepted, back);
    const shown = relative(deps.cwd, file) || file;
    if (existsSync(file) && !options.force) {
      lines.push(`  - skipped ${shown}: it exists (use --force to overwrite)`);
      continue;
    }
    writeFileAtomic(file, text);
    claimed.add(claimKey(file));
    fresh.push(file);
    const original = options.out === undefined ? undefined : declaringResource(loaded.resources, d, nameCount);
    if (original) copyOf.set(file, original.file);
    written++;
    lines.push(escapeTerminal(`  + ${shown}  ← "${d.name}" (${d.id})`));
    for (const w of warnings) lines.push(`      warning: ${escapeTerminal(w)}`);
  }
  if (chosenAlerts.length > 0) {
    const { liveTileLookup, renderAlertYaml } = await import('../render/alert-yaml.ts');
    const webhooks = (await emptyIfMissing(client.listWebhooks({ signal: deps.signal }))).filter(
      (w): w is typeof w & { id: string; name: string } => typeof w.id === 'string' && typeof w.name === 'string',
    );
    const count = new Map<string, number>();
    for (const w of webhooks) count.set(w.name, (count.get(w.name) ?? 0) + 1);
    const webhookNames = new Map(webhooks.filter((w) => count.get(w.name) === 1).map((w) => [w.id, w.name]));
    const alertDir = options.out ? outDir : resolve(project.dir, 'alerts');
    makeFolderInside(options.out ? deps.cwd : project.dir, alertDir, 'alerts');
    const alertSchema = schemaModelinePath(ALERT_SCHEMA, alertDir, project.dir);
    const declaredAlerts = new Map(
      loaded.resources.filter((r) => r.kind === 'Alert' && r.index >= 0).map((r) => [r.kind === 'Alert' ? r.doc.spec.name : '', r.name]),
    );
    const declaringFile = new Map(
      loaded.resources.filter((r) => r.kind === 'Alert' && r.index >= 0).map((r) => [r.kind === 'Alert' ? r.doc.spec.name : '', r.file]),
    );
    const takenAlerts = new Set(loaded.resources.filter((r) => r.kind === 'Alert').map((r) => r.name));
    const tileOf = liveTileLookup(live, dashboardKey, new Set(chosen.map((d) => d.id)));
    // Plan matches an alert by spec.name unless metadata.id pins it: a name two live alerts share is pinned.
    const alertNameCount = new Map<string, number>();
    for (const a of liveAlerts) if (typeof a.name === 'string') alertNameCount.set(a.name, (alertNameCount.get(a.name) ?? 0) + 1);
    // Alerts a template stamps are the template's (without --out, a file of their own would duplicate them).
    const stampedAlerts = new Map(loaded.resources.filter((r) => r.kind === 'Alert' && r.index < 0).map((r) => [r.kind === 'Alert' ? r.doc.spec.name : '', r]));
    for (const a of chosenAlerts) {
      const name = typeof a.name === 'string' && a.name !== '' ? a.name : a.id;
      const stamp = options.out === undefined ? stampedAlerts.get(name) : undefined;
      if (stamp) {
        lines.push(
          escapeTerminal(
            `  = alert "${name}" (${a.id}) is ${stamp.name}, stamped from a template by ${relative(deps.cwd, stamp.file) || stamp.file}: change the template or the instance; --out DIR writes a copy`,
          ),
        );
        continue;
      }
      // A hand-written alert is already its file's: a second file would declare it twice (plan shows any drift).
      const declaredIn = options.out === undefined ? declaringFile.get(name) : undefined;
      if (declaredIn !== undefined) {
        lines.push(
          escapeTerminal(
            `  = alert "${name}" (${a.id}) is declared in ${relative(deps.cwd, declaredIn) || declaredIn}: steward plan compares it there; --out DIR writes a copy`,
          ),
        );
        continue;
      }
      let key = fileKey(declaredAlerts.get(name), name);
      const base = key;
      const ownAlert = key === declaredAlerts.get(name);
      for (let i = 2; (!ownAlert && takenAlerts.has(key)) || !freeFile(alertDir, key, ownAlert); i++) key = `${base}-${i}`;
      takenAlerts.add(key);
      const file = join(alertDir, `${key}.yaml`);
      if (dirname(file) !== alertDir) throw new CliError(`refusing to write outside ${alertDir}: ${file}`);
      const shown = relative(deps.cwd, file) || file;
      if (typeof a.id !== 'string' || !SAFE_ID.test(a.id)) {
        lines.push(
          escapeTerminal(
            `  - refused alert "${name}": its id ${typeof a.id === 'string' ? JSON.stringify(shownId(a.id)) : JSON.stringify(a.id)} is not the shape of an id (it holds control characters or line breaks, or is empty or over 256 characters), so it is not written into a file`,
          ),
        );
        refusedIds++;
        continue;
      }
      const pinId = typeof a.name !== 'string' || a.name === '' || (alertNameCount.get(a.name) ?? 0) > 1;
      const r = renderAlertYaml(a, {
        metadataName: key,
        schemaPath: alertSchema,
        tileOf,
        webhookNames,
        channelsList: caps.alertChannels,
        pinId,
        markerTag: project.markerTag,
      });
      if (r.text === undefined) {
        // Not an error: the alert stays on the service as it is, steward just cannot describe it (yet).
        lines.push(escapeTerminal(`  ! not imported: alert "${name}" (${a.id}): ${r.skipped}`));
        continue;
      }
      const check = processFile(file, Buffer.from(r.text), {}, { isProjectFile: false });
      // As for dashboards: an alert steward would refuse is skipped in one line, the rest imported, exit 1.
      // Schema problems, then what validate's cross-file checks say about this alert (a saved_search alert the
      // server sent without savedSearchId, a between without thresholdMax), with the project and this import.
      const alertErrors = [
        ...check.issues.filter((i) => i.severity === 'error'),
        ...(check.issues.some((i) => i.severity === 'error')
          ? []
          : // The project's dashboards only: an imported alert keeps the metadata.name its declaring file has.
            checkSemantics([...loaded.resources.filter((x) => x.kind === 'Dashboard'), ...accepted, ...check.resources], {
              api: project.spec.observability?.api,
            }).filter((p) => p.severity === 'error' && p.file === file)),
      ];
      if (alertErrors.length > 0) {
        lines.push(
          escapeTerminal(
            `  - skipped alert "${name}" (${a.id}): ${alertErrors[0]!.pointer ? `${alertErrors[0]!.pointer}: ` : ''}${alertErrors[0]!.message}${alertErrors.length > 1 ? ` (and ${alertErrors.length - 1} more)` : ''}`,
          ),
        );
        continue;
      }
      if (existsSync(file) && !options.force) {
        lines.push(`  - skipped ${shown}: it exists (use --force to overwrite)`);
        continue;
      }
      const text = deps.redactText(r.text);
      const back = check.resources;
      if (back.length !== 1 || back[0]!.kind !== 'Alert')
        throw new CliError(
          `refusing to write ${shown}: it would not read back as exactly the alert "${escapeTerminal(name)}"; this is a bug in steward, please report it`,
        );
      writeFileAtomic(file, text);
      claimed.add(claimKey(file));
      fresh.push(file);
      const original = options.out === undefined ? undefined : (declaringFile.get(name) ?? stampedAlerts.get(name)?.file);
      if (original !== undefined) copyOf.set(file, original);
      written++;
      lines.push(escapeTerminal(`  + ${shown}  ← alert "${name}" (${a.id})`));
      for (const w of r.warnings) lines.push(`      warning: ${escapeTerminal(w)}`);
    }
  }
  // New files the project does not read (init leaves alerts/ out of spec.resources until the first alert, and
  // --out is often a folder of copies outside it): plan would not see them.
  const unread = fresh.filter((f) => resourcePattern(project.resources, project.dir, f) === undefined);
  const shownPath = (f: string) => relative(project.dir, f).split(sep).join('/');
  const repeats = fresh.filter((f) => copyOf.has(f) && !unread.includes(f)).map((f) => ({ file: shownPath(f), declaredIn: shownPath(copyOf.get(f)!) }));
  return {
    lines,
    written,
    total: chosen.length + chosenAlerts.length,
    alerts: chosenAlerts.length,
    readsAlerts: caps.readAlerts === true,
    failed: refusedIds > 0 || lines.some((l) => l.includes('skipped')),
    unread: unread.map(shownPath),
    repeats,
  };
}
