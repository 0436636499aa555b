/**
 * An imported alert file's first lines name the live alert it came from, in a `#` comment. The id is the
 * server's: import takes any id without control or format characters (SAFE_ID), so one may still hold a
 * character that shows nothing (a Hangul filler, a variation selector, the combining grapheme joiner), which
 * every other line steward writes into a YAML file escapes (yamlText; the dashboard header, escapeTerminal). The
 * alert header wrote it raw: an id that reads as another in the review (red team, round 17).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { UNSAFE_BEYOND_C0 } from '../../src/render/escape.ts';
import { renderAlertYaml } from '../../src/render/alert-yaml.ts';
import { SAFE_ID } from '../../src/render/dashboard-yaml.ts';
import type { LiveAlert } from '../../src/model/alert.ts';

test('import: the header of an alert file escapes what in the id shows nothing', () => {
  const id = '65f5e4a3b9e77c001a0003c1\u3164\u034f\ufe01';
  assert.ok(SAFE_ID.test(id), 'import takes the id');
  const live = {
    id,
    name: 'Error spike',
    message: 'More than 50 errors in 5m',
    source: 'saved_search',
    savedSearchId: '65f5e4a3b9e77c001a0004d1',
    threshold: 50,
    thresholdType: 'above',
    interval: '5m',
    channels: [{ type: 'webhook', webhookId: '65f5e4a3b9e77c001a0002b1' }],
  } as unknown as LiveAlert;
  const r = renderAlertYaml(live, {
    metadataName: 'error-spike',
    schemaPath: '../schemas/alert.schema.json',
    tileOf: () => 'no tile',
    webhookNames: new Map([['65f5e4a3b9e77c001a0002b1', 'ops-pager']]),
    channelsList: true,
    pinId: true,
    markerTag: 'managed-by:steward',
  });
  assert.ok(r.text, r.skipped);
  assert.equal(
    r.text!.split('\n').filter((l) => UNSAFE_BEYOND_C0.test(l)),
    [],
  );
  assert.match(r.text!, '# Imported from live alert 65f5e4a3b9e77c001a0003c1\\u3164\\u034f\\ufe01 by steward import');
});

test.run();
