// The HTTP target of bench/versus-kuma.ts: answers every request with a small 200 on a loopback port
// and notes when each path was asked, so that the parent can count probes per monitor and measure the
// gap between two probes of one check where it matters: at the target.
import { createServer } from 'node:http';

/** Request times (ms, monotonic) per path; paths are `/<server>/<check>`. */
const seen = new Map();
const origin = Date.now() - performance.now();

const server = createServer((req, res) => {
  const at = performance.now();
  let times = seen.get(req.url);
  if (!times) seen.set(req.url, (times = []));
  times.push(at);
  res.setHeader('content-type', 'text/plain');
  res.end('ok');
});
server.keepAliveTimeout = 1000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Probes per server prefix asked between `from` and `to` (epoch ms), checks probed at least once,
 * and how far the gap between two consecutive probes of one check strays from `intervalMs`.
 */
function stats({ from, to, intervalMs }) {
  const lo = from - origin;
  const hi = to - origin;
  const byServer = {};
  for (const [path, times] of seen) {
    const who = path.split('/')[1] ?? '';
    const s = (byServer[who] ??= { probes: 0, checks: 0, strays: [] });
    let inWindow = 0;
    for (let i = 0; i < times.length; i++) {
      const t = times[i];
      if (t < lo || t >= hi) continue;
      inWindow++;
      if (i > 0 && times[i - 1] >= lo) s.strays.push(Math.abs(t - times[i - 1] - intervalMs));
    }
    s.probes += inWindow;
    if (inWindow > 0) s.checks++;
  }
  const out = {};
  for (const [who, s] of Object.entries(byServer)) {
    s.strays.sort((a, b) => a - b);
    out[who] = { probes: s.probes, checks: s.checks, gaps: s.strays.length, strayP50: percentile(s.strays, 50), strayP99: percentile(s.strays, 99) };
  }
  return out;
}

process.on('message', (msg) => {
  if (msg?.type === 'stats') process.send?.({ type: 'stats', id: msg.id, stats: stats(msg) });
});
process.on('disconnect', () => process.exit(0));
