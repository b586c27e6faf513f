import type { FastifyRequest } from 'fastify';
import type { MqttAuthenticate } from '../events/create-mqtt-broker.js';
import { isLookoutError } from '../domain/lookout-error.js';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import { createAuthenticator } from './authenticate.js';

/**
 * MQTT credentials checked exactly as REST requests are: the password is the API key (Bearer),
 * the username the account header; a key of another account or an unknown key is refused (null).
 */
export function mqttAuthenticator(store: Store, bus?: EventBus): MqttAuthenticate {
  const authenticate = createAuthenticator(store, bus);
  return async (username, password) => {
    const req = { headers: { authorization: `Bearer ${password}`, 'x-lookout-account': username } } as unknown as FastifyRequest;
    try {
      return (await authenticate(req)).accountId;
    } catch (err) {
      if (isLookoutError(err)) return null;
      throw err;
    }
  };
}
