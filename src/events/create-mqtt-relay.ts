import type { Logger } from 'pino';
import { accountOfTopic, type MqttBroker } from './create-mqtt-broker.js';
import type { EventBus } from './event-bus.js';

/** Options of createMqttRelay. */
export interface MqttRelayOptions {
  bus: EventBus;
  broker: MqttBroker;
  logger: Logger;
}

/**
 * Live CLI messages through the event bus: a session's messages are published on the bus, and
 * every process hands them to its own broker. With Redis, a `checkly` CLI whose `/mqtt` connection
 * landed on one process follows a session another process runs; in one process it is the same
 * path in memory. Delivery stays at most once, like every live event.
 */
export function createMqttRelay({ bus, broker, logger }: MqttRelayOptions) {
  const unsubscribe = bus.subscribe('mqttMessage', (event) => {
    broker.publish(event.topic, event.message).catch((err: unknown) => logger.warn({ err, topic: event.topic }, 'MQTT delivery failed'));
  });
  return {
    /** Publishes `message` on `topic` (`account/<accountId>/...`) to the subscribers of every process. */
    async publish(topic: string, message: unknown): Promise<void> {
      const accountId = accountOfTopic(topic);
      if (!accountId) throw new Error(`not an account topic: ${topic}`);
      await bus.publish({ type: 'mqttMessage', accountId, topic, message });
    },
    close(): void {
      unsubscribe();
    },
  };
}
