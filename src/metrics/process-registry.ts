import { collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | undefined;

/**
 * The registry of this Node.js process's own metrics (CPU, memory, event-loop lag, GC), prefixed
 * `lookout_`. It is one per process, created on first use, because those facts belong to the process,
 * not to one Lookout instance, and because prom-client's collectors never stop: a GC observer and an
 * event-loop monitor per instance would pile up in the test suites, which start hundreds of servers
 * in one process. It is never prom-client's global default registry.
 */
export function processRegistry(): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared, prefix: 'lookout_' });
  }
  return shared;
}
