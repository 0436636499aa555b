/**
 * Dashboards, as the services send and take them. The shapes are generated from the JSON Schemas in
 * schemas/api/ (src/clients/api-types.ts); this file names them for the rest of steward, so a stage never
 * copies a field list by hand and a schema change reaches every user of the type.
 */
import type { LiveTile } from '../clients/api-types.ts';

export type { DashboardCreate, LiveDashboard, LiveSeries, LiveTile, SeriesCreate, TileCreate } from '../clients/api-types.ts';

/** A tile as the plan's normalizer reads it: live (with its id) or desired (without). */
export type LiveTileInput = Omit<LiveTile, 'id'> & { id?: string };
