// The HTTP target of bench/runner.ts: answers every request with a small 200, on a loopback port.
import { createServer } from 'node:http';

const server = createServer((_req, res) => {
  res.setHeader('content-type', 'text/plain');
  res.end('ok');
});
server.keepAliveTimeout = 1000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
