/**
 * Child process of hostile-more.test.ts: one request with the client's default limits against the URL in
 * argv, so the parent can measure this process's memory alone. Prints one JSON line.
 */
import { createCloudClient, createObservabilityClient } from '../../src/clients/index.ts';

const [url, which] = process.argv.slice(2) as [string, 'observability' | 'cloud'];
const rssBefore = process.memoryUsage().rss;
const t0 = performance.now();
let error: { name: string; message: string } | undefined;
try {
  if (which === 'cloud') await createCloudClient({ url, keyId: 'k', keySecret: 'secret-1234', retry: { limit: 1 } }).listBackups('o', 's');
  else await createObservabilityClient({ url, token: 'token-1234', retry: { limit: 1 } }).listDashboards();
} catch (e) {
  error = { name: (e as Error).name, message: (e as Error).message };
}
const ms = performance.now() - t0;
process.stdout.write(JSON.stringify({ error, ms, rssBefore, rssAfter: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024 }) + '\n');
