import { Document, isMap, isSeq, type YAMLMap } from 'yaml';
import { escapeInterpolation } from '../config/interpolate.ts';
import { liveChannels, sentChannelOf, type LiveAlert } from '../model/alert.ts';
import type { LiveDashboard } from '../model/dashboard.ts';
import { escapeTerminal } from './escape.ts';
import { yamlText } from './yaml-text.ts';

/**
 * Writes a live alert (hyperdx, clickstack-cloud) as a steward Alert document: what steward sends, with the
 * tile named by its dashboard's metadata.name and tile name, and webhooks by name where one webhook has that
 * name. Pure: the caller says where the dashboard lives and writes the file. `undefined` text: the alert
 * cannot be written (its dashboard is not in the project), with the reason in `skipped`.
 */
export function renderAlertYaml(
  live: LiveAlert,
  opts: {
    metadataName: string;
    schemaPath: string;
    /**
     * The dashboard metadata.name and tile name of a live tile id, for the project's (and this import's)
     * dashboards; else why the alert cannot name it (`liveTileLookup`).
     */
    tileOf: (dashboardId: string, tileId: string) => { dashboard: string; tile: string } | string;
    webhookNames: ReadonlyMap<string, string>;
    /** The service keeps a `channels` list (hyperdx) rather than one `channel` (ClickStack). */
    channelsList: boolean;
    /**
     * Write metadata.id: the alert has no name on the service, or shares it with another live alert, so
     * matching by spec.name would not find it (a second alert created, or both blocked as ambiguous).
     */
    pinId: boolean;
    /** The project's marker, which apply writes into the alert's `note`. */
    markerTag: string;
  },
): { text?: string; skipped?: string; warnings: string[] } {
  const l = live as LiveAlert & Record<string, unknown>;
  const warnings: string[] = [];
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const spec: Record<string, unknown> = { name: str(l['name']) ?? opts.metadataName };
  const note = str(l['note']);
  if (note !== undefined && note !== opts.markerTag) {
    const shown = note.length > 60 ? `${note.slice(0, 57)}...` : note;
    warnings.push(
      `its note ${JSON.stringify(shown)} is replaced by steward's marker (${opts.markerTag}) on the next apply: steward keeps its ownership mark there`,
    );
  }
  if (str(l['name']) === undefined) warnings.push(`it has no name on the service: the file names it "${opts.metadataName}", which the next apply sets`);
  if (str(l['message'])) spec['message'] = l['message'];
  if (typeof l['threshold'] === 'number') spec['threshold'] = l['threshold'];
  if (typeof l['thresholdMax'] === 'number' && (l['thresholdType'] === 'between' || l['thresholdType'] === 'not_between'))
    spec['thresholdMax'] = l['thresholdMax'];
  if (str(l['thresholdType'])) spec['thresholdType'] = l['thresholdType'];
  if (str(l['interval'])) spec['interval'] = l['interval'];
  if (str(l['source'])) spec['source'] = l['source'];
  if (l['source'] === 'tile') {
    const dashboardId = str(l['dashboardId']) ?? str(l['dashboard']);
    const tileId = str(l['tileId']);
    const where =
      dashboardId && tileId ? opts.tileOf(dashboardId, tileId) : `it watches a tile, but the service sent no ${dashboardId ? 'tileId' : 'dashboardId'} for it`;
    if (typeof where === 'string') return { skipped: where, warnings };
    spec['tile'] = { dashboard: where.dashboard, name: where.tile };
  }
  const savedSearchId = str(l['savedSearchId']) ?? str(l['savedSearch']);
  if (l['source'] === 'saved_search' && savedSearchId) spec['savedSearchId'] = savedSearchId;
  if (str(l['groupBy'])) spec['groupBy'] = l['groupBy'];
  for (const k of ['numConsecutiveWindows', 'scheduleOffsetMinutes'] as const) if (typeof l[k] === 'number') spec[k] = l[k];
  if (str(l['scheduleStartAt'])) spec['scheduleStartAt'] = l['scheduleStartAt'];
  // Every channel member the server holds is written (a webhook by name where one has that id): what the
  // file leaves out, plan shows going, since the PUT replaces the alert.
  const channels = liveChannels(live)
    .map((c) => {
      if (c.type !== 'webhook' && c.type !== 'email') {
        warnings.push(`a ${String(c.type ?? 'untyped')} channel is left out: steward writes webhook and email channels`);
        return undefined;
      }
      const sent = sentChannelOf(c);
      if (sent.type === 'email') return sent;
      const { type, webhookId, ...extras } = sent;
      if (!webhookId) {
        warnings.push('a webhook channel without a webhookId is left out');
        return undefined;
      }
      const name = opts.webhookNames.get(webhookId);
      return name !== undefined ? { type, webhook: name, ...extras } : sent;
    })
    .filter((c): c is NonNullable<typeof c> => c !== undefined);
  if (channels.length === 0) return { skipped: 'it has no webhook or email channel, which steward needs to describe it', warnings };
  if (opts.channelsList) spec['channels'] = channels;
  else spec['channel'] = channels[0];
  // Text from the server is literal: `${` is escaped so loading the file does not read it as a variable.
  const metadata = { name: opts.metadataName, ...(opts.pinId ? { id: live.id } : {}) };
  const doc = new Document({ apiVersion: 'steward/v1', kind: 'Alert', metadata, spec: escapeInterpolation(spec) });
  const specNode = doc.get('spec') as YAMLMap;
  const tile = specNode.get('tile');
  if (isMap(tile)) tile.flow = true;
  const ch = specNode.get('channel');
  if (isMap(ch)) ch.flow = true;
  const list = specNode.get('channels');
  if (isSeq(list)) for (const c of list.items) if (isMap(c)) c.flow = true;
  // The id is the server's (SAFE_ID keeps out line breaks, not what shows nothing): escaped, as the dashboard header's.
  const header = `# yaml-language-server: $schema=${escapeTerminal(opts.schemaPath)}\n# Imported from live alert ${escapeTerminal(String(live.id))} by steward import; matched by ${opts.pinId ? 'metadata.id' : 'spec.name'} from now on.\n`;
  return { text: header + yamlText(doc), warnings };
}

/**
 * `tileOf` for `renderAlertYaml` over the live dashboards: the metadata.name `keys` gives a dashboard (a project
 * file's, or the file this import wrote) and the tile's name; else why not, as it happened. A dashboard the
 * service does not list, or one this import chose and skipped (its line says why), is not one "to import too"
 * (red team, seed sweep: under `import --all`, every such alert said "import that dashboard too (--all
 * imports both)").
 */
export function liveTileLookup(
  live: readonly LiveDashboard[],
  keys: ReadonlyMap<string, string>,
  chosen: ReadonlySet<string>,
): (dashboardId: string, tileId: string) => { dashboard: string; tile: string } | string {
  return (dashboardId, tileId) => {
    const d = live.find((x) => x.id === dashboardId);
    if (!d) return `it watches a tile of dashboard ${dashboardId}, which the service does not list`;
    const of = `dashboard "${d.name}" (${dashboardId})`;
    const key = keys.get(dashboardId);
    if (key === undefined)
      return chosen.has(dashboardId)
        ? `it watches a tile of ${of}, which this import did not write (see its line)`
        : `it watches a tile of ${of}, which no file of this project declares: import that dashboard too (--all imports both)`;
    const tile = d.tiles?.find((t) => t && t.id === tileId);
    if (!tile) return `it watches tile ${tileId} of ${of}, which has no tile with that id`;
    return typeof tile.name === 'string' ? { dashboard: key, tile: tile.name } : `it watches tile ${tileId} of ${of}, which has no name`;
  };
}
