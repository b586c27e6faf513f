import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';

export type DnsTransport = 'UDP' | 'TCP';

/**
 * Decides what the server sends back for one received message: a list of raw DNS messages (each
 * one datagram over UDP, each framed with its length over TCP), or nothing to stay silent.
 * `query` is null when the message did not decode.
 */
export type DnsResponder = (query: dnsPacket.DecodedPacket | null, transport: DnsTransport, raw: Buffer) => Buffer[];

/** A DNS server on 127.0.0.1 answering over UDP and TCP on the same port. */
export interface TestDnsServer {
  port: number;
  /** Messages received, in order, with the transport they came over. */
  received: { transport: DnsTransport; name: string | null; type: string | null }[];
  close(): Promise<void>;
}

/** Starts a DNS server on 127.0.0.1 (port 0 for UDP, then TCP on the same port). */
export async function startDnsServer(respond: DnsResponder): Promise<TestDnsServer> {
  const received: TestDnsServer['received'] = [];
  const decode = (raw: Buffer, transport: DnsTransport) => {
    let query: dnsPacket.DecodedPacket | null = null;
    try {
      query = dnsPacket.decode(raw);
    } catch {
      query = null;
    }
    const q = query?.questions?.[0];
    received.push({ transport, name: q?.name ?? null, type: q?.type ?? null });
    return respond(query, transport, raw);
  };

  for (let tries = 0; ; tries++) {
    const udp = dgram.createSocket('udp4');
    udp.on('message', (msg, rinfo) => {
      for (const out of decode(msg, 'UDP')) udp.send(out, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', () => resolve()));
    const port = udp.address().port;
    const sockets = new Set<net.Socket>();
    const tcp = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      let buffered = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
          const length = buffered.readUInt16BE(0);
          const message = buffered.subarray(2, 2 + length);
          buffered = buffered.subarray(2 + length);
          for (const out of decode(message, 'TCP')) {
            const framed = Buffer.alloc(2 + out.length);
            framed.writeUInt16BE(out.length, 0);
            out.copy(framed, 2);
            socket.write(framed);
          }
        }
      });
    });
    const listening = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!listening) {
      udp.close();
      if (tries < 20) continue;
      throw new Error('no port free for both UDP and TCP');
    }
    return {
      port,
      received,
      close: async () => {
        for (const s of sockets) s.destroy();
        await Promise.all([
          new Promise<void>((resolve) => tcp.close(() => resolve())),
          new Promise<void>((resolve) => udp.close(() => resolve())),
        ]);
      },
    };
  }
}

/** A response to `query` with the given response code and sections. */
export function dnsResponse(
  query: dnsPacket.DecodedPacket,
  options: { rcode?: number; truncated?: boolean; answers?: dnsPacket.Answer[]; authorities?: dnsPacket.Answer[]; id?: number } = {},
): Buffer {
  const flags = dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE
    | (options.truncated ? dnsPacket.TRUNCATED_RESPONSE : 0) | (options.rcode ?? 0);
  return dnsPacket.encode({
    type: 'response',
    id: options.id ?? query.id,
    flags,
    questions: query.questions,
    answers: options.answers ?? [],
    authorities: options.authorities ?? [],
  });
}
