/**
 * Alerts naming a tile: each dashboard's tiles are read once, however many alerts are on it (red team, round
 * 12: 10,000 alerts on a dashboard of 10,000 tiles walked the tiles once per alert, 10^8 steps), and what the
 * checks say of each reference stays the same.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyResource } from '../../src/model/resource.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { dashboardResource } from '../helpers/resource.ts';

const tile = (name: string, displayType: string) => ({ name, x: 0, y: 0, w: 6, h: 2, config: { displayType, select: [] } });

function alert(i: number, tileName: string): AnyResource {
  return {
    kind: 'Alert',
    name: `a${i}`,
    file: '/repo/alerts/a.yaml',
    index: i,
    doc: {
      apiVersion: 'steward/v1',
      kind: 'Alert',
      metadata: { name: `a${i}` },
      spec: {
        name: `A${i}`,
        threshold: 1,
        thresholdType: 'above',
        interval: '5m',
        source: 'tile',
        tile: { dashboard: 'd', name: tileName },
        channel: { type: 'webhook', webhook: 'w' },
      },
    } as never,
  };
}

/** The dashboard, and how many times checkSemantics read its list of tiles. */
function countedDashboard(): { resource: AnyResource; reads: () => number } {
  const resource = dashboardResource({ name: 'D', tiles: [] });
  const tiles = [tile('line', 'line'), tile('twice', 'table'), tile('twice', 'line')];
  let reads = 0;
  Object.defineProperty((resource.doc as { spec: object }).spec, 'tiles', {
    enumerable: true,
    get: () => {
      reads++;
      return tiles;
    },
  });
  return { resource, reads: () => reads };
}

const tileProblems = (alerts: AnyResource[]) => {
  const d = countedDashboard();
  const problems = checkSemantics([d.resource, ...alerts], { api: 'hyperdx' }).filter((p) => p.pointer === '/spec/tile/name');
  return { problems: problems.map((p) => `${p.index}: ${p.message}`), reads: d.reads() };
};

test('the tiles of a dashboard are read once for all the alerts on it', () => {
  const one = tileProblems([alert(0, 'line')]);
  const many = tileProblems(Array.from({ length: 100 }, (_, i) => alert(i, 'line')));
  assert.equal(many.problems, []);
  assert.is(many.reads, one.reads);
});

test('what is said of each reference is unchanged: unknown tile with a hint, and the first of two tiles of one name', () => {
  const { problems } = tileProblems([alert(0, 'lien'), alert(1, 'twice'), alert(2, 'line')]);
  assert.equal(problems, [
    '0: dashboard "d" has no tile named "lien"; did you mean "line"?',
    '1: tile "twice" is a table chart; alerts need a line, stacked_bar or number tile (the hyperdx API deletes others\' alerts on the next update)',
  ]);
});

test.run();
