import type { EventBus } from '../events/event-bus.js';
import type { Metrics } from './create-metrics.js';

/**
 * The bus, counting into `lookout_event_bus_published_total{type}` each event this process
 * published successfully (a bus error is the publisher's to log, and is not counted).
 */
export function countPublishedEvents(bus: EventBus, metrics: Pick<Metrics, 'eventBusPublished'>): EventBus {
  return {
    async publish(event) {
      await bus.publish(event);
      metrics.eventBusPublished.inc({ type: event.type });
    },
    subscribe: (type, handler) => bus.subscribe(type, handler),
    ...(bus.ping ? { ping: () => bus.ping!() } : {}),
    close: () => bus.close(),
  };
}
