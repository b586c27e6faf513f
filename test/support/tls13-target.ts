import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import tls from 'node:tls';
import type { Pem } from './mtls-target.js';

/** A TLS server on loopback that speaks TLS 1.3 only (an SSL monitor's target). */
export interface Tls13Target {
  port: number;
  /** Handshakes completed so far. */
  handshakes(): number;
  close(): Promise<void>;
}

/** Starts it on 127.0.0.1, port 0, presenting `pem`; a connection is closed after its handshake. */
export async function startTls13Target(pem: Pem): Promise<Tls13Target> {
  let handshakes = 0;
  const sockets = new Set<Socket>();
  const server = tls.createServer({ ...pem, minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' }, (socket) => {
    handshakes++;
    socket.on('error', () => undefined);
    socket.end();
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A client that gives up mid-handshake is not the server's failure.
  server.on('tlsClientError', () => undefined);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    handshakes: () => handshakes,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
