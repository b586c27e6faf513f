import type { DnsObservation } from './observation.js';

/**
 * The answer as text, one record per line the way dig prints its answer section
 * (`name<TAB>ttl<TAB>IN<TAB>type<TAB>data`); '' when there are no records. TEXT_ANSWER assertions
 * read this text, and the runner stores it as the run's raw response.
 */
export function formatDnsAnswerText(observation: Pick<DnsObservation, 'answers'>): string {
  return observation.answers.map((r) => [r.name, r.ttl, 'IN', r.type, r.data].join('\t')).join('\n');
}

/** The JSON form of a DNS response that JSON_ANSWER paths query. */
export interface DnsAnswerJson {
  Status: string;
  Answer: { name: string; type: string; TTL: number; data: string }[];
}

/**
 * The answer as JSON, in the key names of DNS-over-HTTPS JSON responses so paths such as
 * `$.Answer[0].data` work as they do elsewhere; `Status` is the response code name.
 */
export function formatDnsAnswerJson(observation: Pick<DnsObservation, 'rcode' | 'answers'>): DnsAnswerJson {
  return {
    Status: observation.rcode.toUpperCase(),
    Answer: observation.answers.map((r) => ({ name: r.name, type: r.type, TTL: r.ttl, data: r.data })),
  };
}
