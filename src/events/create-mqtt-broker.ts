import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { Logger } from 'pino';
import { hashApiKey } from '../domain/api-key.js';
import { WebSocketServer, createWebSocketStream } from 'ws';

/** Resolves an MQTT username (account id) and password (API key) to the account, or null when refused. */
export type MqttAuthenticate = (username: string, password: string) => Promise<string | null>;

/** Options of createMqttBroker. */
export interface MqttBrokerOptions {
  authenticate: MqttAuthenticate;
  logger: Logger;
  /** Path upgraded to MQTT over WebSocket; default `/mqtt`. */
  path?: string;
  /**
   * Paths other upgrade handlers on the same server own (graphql-ws's `/graphql`): an upgrade to
   * any other path is refused here, since no handler would answer it.
   */
  otherUpgradePaths?: string[];
  /** Largest MQTT packet accepted from a client, in bytes (clients only subscribe); default 64 KiB. */
  maxPayloadBytes?: number;
}

/** The embedded broker: the process publishes, authenticated clients of an account listen. */
export interface MqttBroker {
  /** Publishes a JSON message (QoS 1) to every subscriber of `topic`. */
  publish(topic: string, message: unknown): Promise<void>;
  /** Serves the broker on `server`'s upgrades at the path: it shares the API's port. Once. */
  attach(server: Server): void;
  /** Clients connected now. */
  connectedClients(): number;
  /** Disconnects every client that connected with the key of this hash (a revoked key); answers how many. */
  disconnectKey(keyHash: string): number;
  /**
   * Asks again, for every client of `accountId`, whether the key it
   * connected with still gives access to its account (a personal key's member may have left), and
   * disconnects those refused; answers how many. A check that throws keeps its client: the next
   * change, or its reconnection, decides.
   */
  recheck(accountId: string, stillAllowed: (keyHash: string, accountId: string) => Promise<boolean>): Promise<number>;
  /** Disconnects every client and stops accepting upgrades. */
  close(): Promise<void>;
}

/** The account a topic belongs to: topics are `account/<accountId>/...`. */
export function accountOfTopic(topic: string): string | null {
  const [root, accountId] = topic.split('/');
  if (root !== 'account' || !accountId || accountId === '+' || accountId === '#') return null;
  return accountId;
}

/** The id the broker keeps a client's session under: its account's id, then the id it chose. */
export function scopedClientId(accountId: string, clientId: string): string {
  return `${accountId}:${clientId}`;
}

function refused(returnCode: 4 | 5, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * MQTT 3.1.1 over WebSocket at `/mqtt` on the API's own port (what `checkly test|trigger` listen on
 * for live results). Username = account id, password = API key; a wrong pair is refused at CONNECT
 * (return code 4). A client may subscribe only under `account/<its account>/` (others get the
 * SUBACK failure code 0x80) and may not publish at all: only this process writes results. Client
 * ids are scoped to the account (scopedClientId): accounts cannot take over each other's sessions.
 */
export async function createMqttBroker(options: MqttBrokerOptions): Promise<MqttBroker> {
  const { authenticate, logger } = options;
  let server: Server | undefined;
  const path = options.path ?? '/mqtt';
  const otherPaths = new Set(options.otherUpgradePaths ?? []);
  const accountOf = new WeakMap<Client, string>();
  // The hash of the key each client connected with (never the key), so a revoked key's clients can be dropped.
  const keyHashOf = new Map<Client, string>();

  const broker = new Aedes({
    authenticate(client, username, password, done) {
      if (!username || !password) {
        done(refused(4, 'username (account id) and password (API key) are required'), false);
        return;
      }
      authenticate(username, password.toString('utf8')).then((accountId) => {
        if (!accountId) return done(refused(4, 'bad account id or API key'), false);
        accountOf.set(client, accountId);
        keyHashOf.set(client, hashApiKey(password.toString('utf8')));
        // Client ids are the client's to choose, so they are scoped to its account: a client of
        // another account reusing one must neither take this session over (aedes closes the
        // previous client of an id) nor be told it is present. Aedes keys sessions by client.id
        // only after authenticating, so renaming here is enough.
        (client as { id: string }).id = scopedClientId(accountId, client.id);
        done(null, true);
      }, (err: unknown) => {
        logger.error({ err }, 'mqtt authentication failed');
        done(refused(4, 'authentication failed'), false);
      });
    },
    authorizeSubscribe(client, subscription, done) {
      const own = accountOf.get(client);
      // null (not an error) answers this one subscription with 0x80 and keeps the connection.
      done(null, own !== undefined && accountOfTopic(subscription.topic) === own ? subscription : null);
    },
    authorizePublish(client, _packet, done) {
      // client === null: the broker's own publish.
      done(client ? new Error('clients may not publish') : null);
    },
  });
  await broker.listen();
  broker.on('clientDisconnect', (client) => keyHashOf.delete(client));
  broker.on('clientError', (client, err) => logger.debug({ err, clientId: client.id }, 'mqtt client error'));
  broker.on('connectionError', (_client, err) => logger.debug({ err }, 'mqtt connection error'));

  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes ?? 64 * 1024 });
  wss.on('connection', (ws, request: IncomingMessage) => {
    const stream = createWebSocketStream(ws);
    stream.on('error', (err) => logger.debug({ err }, 'mqtt socket error'));
    broker.handle(stream, request);
  });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const requested = new URL(request.url ?? '/', 'http://x').pathname;
    if (requested !== path) {
      // Another handler owns this path; any other upgrade would dangle without an answer.
      if (!otherPaths.has(requested)) socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };

  let closing: Promise<void> | undefined;
  return {
    publish(topic, message) {
      return new Promise((resolve, reject) => {
        broker.publish({ cmd: 'publish', topic, payload: Buffer.from(JSON.stringify(message)), qos: 1, retain: false, dup: false }, (err) => (err ? reject(err) : resolve()));
      });
    },
    attach(target) {
      if (server) throw new Error('the MQTT broker is attached already');
      server = target;
      server.on('upgrade', onUpgrade);
    },
    connectedClients: () => broker.connectedClients,
    disconnectKey(keyHash) {
      let dropped = 0;
      for (const [client, hash] of keyHashOf) {
        if (hash !== keyHash) continue;
        keyHashOf.delete(client);
        client.close();
        dropped++;
      }
      return dropped;
    },
    async recheck(accountId, stillAllowed) {
      const asked = [...keyHashOf].filter(([client]) => accountOf.get(client) === accountId);
      const refusedClients = await Promise.all(asked.map(async ([client, hash]) => {
        try {
          return (await stillAllowed(hash, accountId)) ? null : client;
        } catch (err) {
          logger.warn({ err, clientId: client.id }, 'mqtt client access could not be checked again; kept');
          return null;
        }
      }));
      let dropped = 0;
      for (const client of refusedClients) {
        if (!client || !keyHashOf.delete(client)) continue;
        client.close();
        dropped++;
      }
      return dropped;
    },
    close() {
      closing ??= (async () => {
        server?.off('upgrade', onUpgrade);
        await new Promise<void>((resolve) => broker.close(() => resolve()));
        for (const ws of wss.clients) ws.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
      })();
      return closing;
    },
  };
}
