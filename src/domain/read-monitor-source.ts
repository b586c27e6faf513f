import { JSONPath } from 'jsonpath-plus';
import type { SslObservation, TracerouteObservation } from './observation.js';

/** What an assertion source reads from an SSL or TRACEROUTE observation: a value (undefined: absent) or why it cannot. */
export type MonitorReading = { value: unknown } | { error: string };

const LATENCY_PROPERTIES = ['avg', 'min', 'max', 'stdDev'] as const;

/**
 * The value an assertion source reads from the newer monitors' observations (see
 * evaluateAssertion for the comparisons):
 *
 * | source        | type       | value                                                                  |
 * |---------------|------------|------------------------------------------------------------------------|
 * | CERTIFICATE   | SSL        | the leaf certificate's `property` (daysUntilExpiry, subjectCN, sans...) |
 * | CONNECTION    | SSL        | the handshake's `property` (tlsVersion, cipherSuite, chainTrusted...)   |
 * | RESPONSE_TIME | SSL        | the handshake time in ms                                               |
 * | JSON_RESPONSE | SSL        | JSON path `property` into the response document                       |
 * | TEXT_RESPONSE | SSL        | the response document as JSON text; `property` is a regex whose first group (or match) is the value |
 * | RESPONSE_TIME | TRACEROUTE | the destination's round trip `property` (avg by default, min, max, stdDev) |
 * | HOP_COUNT     | TRACEROUTE | hops to the destination                                                |
 * | PACKET_LOSS   | TRACEROUTE | percentage of the destination's probes unanswered                       |
 */
export function readMonitorSource(source: string, property: string | null, o: SslObservation | TracerouteObservation): MonitorReading {
  const wrongFamily = (): MonitorReading => ({ error: `source ${source} does not apply to ${o.kind} results` });
  if (o.kind === 'TRACEROUTE') {
    switch (source) {
      case 'RESPONSE_TIME': {
        const key = LATENCY_PROPERTIES.find((p) => p === (property || 'avg'));
        if (!key) return { error: `RESPONSE_TIME property must be one of ${LATENCY_PROPERTIES.join(', ')}` };
        return { value: o.latency ? o.latency[key] : null };
      }
      case 'HOP_COUNT': return { value: o.hopCount };
      case 'PACKET_LOSS': return { value: o.packetLoss };
      default: return wrongFamily();
    }
  }
  switch (source) {
    case 'CERTIFICATE':
      if (!o.certificate) return { value: null };
      return property && Object.hasOwn(o.certificate, property) ? { value: o.certificate[property] } : { error: `unknown CERTIFICATE property ${JSON.stringify(property)}` };
    case 'CONNECTION':
      return property && Object.hasOwn(o.connection, property) ? { value: o.connection[property] } : { error: `unknown CONNECTION property ${JSON.stringify(property)}` };
    case 'RESPONSE_TIME': return { value: o.responseTime };
    case 'JSON_RESPONSE': return queryJson(o.response, property);
    case 'TEXT_RESPONSE': return textResponse(JSON.stringify(o.response), property);
    default: return wrongFamily();
  }
}

function queryJson(doc: object, property: string | null): MonitorReading {
  const path = property?.trim() || '$';
  try {
    const matches = JSONPath({ path, json: doc, wrap: true, eval: 'safe', ignoreEvalErrors: true }) as unknown[] | undefined;
    if (!matches || matches.length === 0) return { value: undefined };
    return { value: matches.length === 1 ? matches[0] : matches };
  } catch (e) {
    return { error: `invalid JSON path ${JSON.stringify(path)}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function textResponse(text: string, pattern: string | null): MonitorReading {
  if (!pattern) return { value: text };
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (e) {
    return { error: `invalid regex ${JSON.stringify(pattern)}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const m = re.exec(text);
  return { value: m ? (m.length > 1 ? m[1] : m[0]) : undefined };
}
