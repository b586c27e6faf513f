import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';

/** A free loopback port (the moment it is read; good enough for a test's own Redis). */
export async function freePort(): Promise<number> {
  const probeServer = net.createServer().listen(0, '127.0.0.1');
  await once(probeServer, 'listening');
  const { port } = probeServer.address() as AddressInfo;
  await new Promise((resolve) => probeServer.close(resolve));
  return port;
}

/** A throwaway redis-server on `port` that a test may stop and start again, resolved once it accepts connections. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return child;
}

/** Stops a redis-server started by startRedis. */
export async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
