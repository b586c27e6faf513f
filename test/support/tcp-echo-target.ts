import { once } from 'node:events';
import net, { type AddressInfo, type Socket } from 'node:net';

/** A TCP server echoing what it receives, on IPv4 and IPv6 loopback alike. */
export interface TcpEchoTarget {
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Starts it on `::` (dual stack, so 127.0.0.1 and ::1 both reach it), port 0: every chunk
 * received is written back, as tcpbin.com's echo port does.
 */
export async function startTcpEchoTarget(): Promise<TcpEchoTarget> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => socket.write(chunk));
  });
  server.listen({ port: 0, host: '::', ipv6Only: false });
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
