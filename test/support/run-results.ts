import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import type { ProbeResult } from '../../src/domain/check-result.js';
import { createMemoryEventBus } from '../../src/events/create-memory-event-bus.js';
import type { EventBus } from '../../src/events/event-bus.js';
import type { RunnableCheck } from '../../src/runner/executor.js';
import { createRunRecorder, type RecordRunInput } from '../../src/runner/create-run-recorder.js';
import type { Store } from '../../src/store/create-store.js';
import type { TestClient } from './test-server.js';

/** A probe result as an executor would return it: a clean 100 ms run unless told otherwise. */
export function probe(overrides: Partial<ProbeResult> & { at?: Date } = {}): ProbeResult {
  const { at, ...rest } = overrides;
  const startedAt = rest.startedAt ?? at ?? new Date();
  const responseTime = rest.responseTime ?? 100;
  return {
    startedAt,
    stoppedAt: new Date(startedAt.getTime() + Math.ceil(responseTime)),
    responseTime,
    hasFailures: false,
    hasErrors: false,
    isDegraded: false,
    overMaxResponseTime: false,
    errors: [],
    assertions: [],
    networkError: false,
    ...rest,
  };
}

/** An HTTP probe with a response status and timing phases, as the API executor reports them. */
export function httpProbe(o: {
  at: Date; status?: number; phases?: { dns: number; tcp: number; tls: number; firstByte: number; download: number };
} & Partial<ProbeResult>): ProbeResult {
  const { status = 200, phases = { dns: 5, tcp: 10, tls: 15, firstByte: 50, download: 20 }, at, ...rest } = o;
  const total = phases.dns + phases.tcp + phases.tls + phases.firstByte + phases.download;
  return probe({
    at,
    responseTime: total,
    apiCheckResult: {
      assertions: [],
      request: { method: 'GET', url: 'https://shop.test/', data: '', headers: {}, params: {} },
      response: { status, statusText: String(status), body: 'ok', headers: {}, timings: {}, timingPhases: { ...phases, total } },
      requestError: null,
    },
    ...rest,
  });
}

/** The check as the runner hands it to executors, from the API's view of it. */
export function runnable(client: TestClient, view: Record<string, any>): RunnableCheck {
  return { id: view.id, accountId: client.accountId, checkType: view.checkType, name: view.name, data: view as RunnableCheck['data'], groupId: view.groupId ?? null };
}

/** A recorder over a test server's store with its own in-process bus. */
export function testRecorder(store: Store): { bus: EventBus; record(input: Omit<RecordRunInput, 'sequenceId' | 'attempts' | 'resultType' | 'location'> & Partial<RecordRunInput>): Promise<Record<string, any>> } {
  const bus = createMemoryEventBus();
  const recorder = createRunRecorder({ store, bus, logger: pino({ level: 'silent' }) });
  return {
    bus,
    record: (input) => recorder.record({ location: 'eu-west-1', sequenceId: randomUUID(), attempts: 1, resultType: 'FINAL', ...input }),
  };
}
