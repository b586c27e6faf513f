import { randomUUID } from 'node:crypto';
import type { Store } from '../../src/store/create-store.js';

/** A stored result's facts that retention and roll-ups look at; the rest is filled in. */
export interface SeedResult {
  at: Date;
  location?: string;
  responseTime?: number;
  failed?: boolean;
  degraded?: boolean;
  resultType?: 'FINAL' | 'ATTEMPT';
  testSessionId?: string | null;
  /** Asset files the result lists (its browser part's jobAssets). */
  files?: string[];
}

/** A new account with one check of `checkType`; results are stored straight through the store, at any time. */
export async function seedCheck(store: Store, checkType = 'BROWSER') {
  const accountId = (await store.accounts.create({ name: `Lifecycle ${randomUUID()}` })).id;
  const checkId = randomUUID();
  const data = { name: 'Lifecycle', activated: true, groupId: null, tags: [], locations: ['eu-west-1'] };
  await store.checks.insert(accountId, { id: checkId, checkType, data });
  const result = async (r: SeedResult): Promise<string> => {
    const id = randomUUID();
    const responseTime = r.responseTime ?? 100;
    await store.results.insert(accountId, {
      id, checkId, sequenceId: randomUUID(), resultType: r.resultType ?? 'FINAL', attempts: 1, name: data.name, checkType,
      runLocation: r.location ?? 'eu-west-1', hasFailures: r.failed ?? false, hasErrors: r.failed ?? false, isDegraded: r.degraded ?? false,
      isCancelled: false, overMaxResponseTime: false, startedAt: r.at, stoppedAt: new Date(r.at.getTime() + Math.ceil(responseTime)),
      responseTime, statusCode: null, dns: null, tcp: null, tls: null, firstByte: null, download: null, wait: null, errorGroupIds: [],
      testSessionId: r.testSessionId ?? null,
      detail: { browserCheckResult: r.files ? { jobAssets: r.files.map((file) => ({ name: 'final.png', type: 'screenshot', contentType: 'image/png', size: 3, file })) } : null },
    });
    return id;
  };
  return { accountId, checkId, result };
}
