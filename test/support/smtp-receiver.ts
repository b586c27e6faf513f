import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the receiver got it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent (headers and body, transfer-encoded). */
  raw: string;
  /** The raw message with quoted-printable soft breaks and `=3D` undone: what tests search for links. */
  text: string;
}

/** A real SMTP server on loopback that keeps every mail it accepts. */
export interface SmtpReceiver {
  url: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * Starts an SMTP server on 127.0.0.1 (port 0, no TLS, no auth). Recipients `@rejected.test` are
 * refused with 550, so tests can see how a refused mail is reported.
 */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@rejected.test')) return callback(Object.assign(new Error('no such user'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: raw.replace(/=\r\n/g, '').replace(/=3D/g, '='),
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
