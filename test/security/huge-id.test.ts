/**
 * A server answering with an id of a million characters: apply and import print a line naming it, not the
 * id whole (red team, round 15: apply printed a 5 MB id on each line naming it, import its refusal quoting it).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { DASH, ENV, project } from './project-files.ts';

const HUGE = 'a'.repeat(1_000_000);

test('an id of a million characters from a create and from a list: apply and import print its start and its length', async () => {
  const live: object[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.method === 'POST') {
        const made = { ...(JSON.parse(body) as object), id: HUGE };
        live.push(made);
        res.end(JSON.stringify({ data: made }));
      } else res.end(JSON.stringify({ data: live }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const p = tmpProject({ 'steward.yaml': project().replace('http://127.0.0.1:9', url), 'dashboards/d.yaml': DASH });
  try {
    const applied = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: ENV(p.dir) });
    assert.is(applied.code, 0, applied.stderr.slice(0, 2000));
    assert.match(applied.stdout, /\+ created dashboard d \(a{40}… \(an id of 1,000,000 characters\)\)/);
    assert.ok(applied.stdout.length + applied.stderr.length < 10_000, `${applied.stdout.length} characters printed`);
    const imported = await steward(['import', '--all', '--out', 'imported'], { cwd: p.dir, env: ENV(p.dir) });
    assert.match(imported.stdout, /refused "D": its id "a{40}… \(an id of 1,000,000 characters\)" is not the shape of an id/);
    assert.ok(imported.stdout.length + imported.stderr.length < 10_000, `${imported.stdout.length} characters printed`);
  } finally {
    p.cleanup();
    await new Promise((r) => server.close(r));
  }
});

test.run();
