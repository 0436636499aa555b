import type { Report } from '../report/types.ts';
import { jsonText } from './escape.ts';

/** `report.json`: the Report value itself (`formatVersion: 1`), two-space indented, with a final newline. */
export function renderReportJson(report: Report): string {
  return jsonText(report) + '\n';
}
