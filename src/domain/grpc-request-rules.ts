import { isGrpcMetadataKey, parseGrpcMethod, protoImportProblem } from './grpc-catalog.js';
import type { Issue } from './lookout-error.js';

const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const HEALTH_TARGETS = ['0', '1', '2', '3'];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What a GRPC check's `request` (defaults applied) asks that no run could honour, by key:
 * - `url` is a host name or address: no scheme, path or port (the port is `port`);
 * - BEHAVIOR needs `grpcConfig.method` (`package.Service/Method`) and takes no `service`;
 *   PROTO_FILE needs `protoContent`, which imports only the built-in well-known types;
 *   `message` is a JSON object;
 * - HEALTH asks the health service: `method`, `serviceDefinition`, `protoContent` and `message`
 *   belong to BEHAVIOR;
 * - metadata keys are ones gRPC can send (not `grpc-…`), `-bin` values are base64;
 * - GRPC_HEALTHCHECK_STATUS assertions exist in HEALTH mode only, compare with EQUALS or
 *   NOT_EQUALS against a serving status number 0–3.
 * `{{VARIABLES}}` are filled in at run time, so text holding one is taken as it comes.
 */
export function grpcRequestIssues(request: Record<string, any>): Issue[] {
  const issues: Issue[] = [];
  const url = String(request.url ?? '');
  if (!url.includes('{{') && (/[/\s]/.test(url) || /:\d+$/.test(url) || url.includes('://') || url.trim() === '')) {
    issues.push({ key: 'request.url', message: 'must be a host name or address, without a scheme, path or port (the port goes in request.port)' });
  }
  const config: Record<string, any> = request.grpcConfig ?? {};
  const mode = config.mode ?? 'BEHAVIOR';
  const at = (key: string) => `request.grpcConfig.${key}`;
  if (mode === 'BEHAVIOR') {
    if (!given(config.method)) issues.push({ key: at('method'), message: 'is required in BEHAVIOR mode (e.g. "package.Service/Method")' });
    else if (!String(config.method).includes('{{') && !parseGrpcMethod(String(config.method))) {
      issues.push({ key: at('method'), message: 'must name a method as "package.Service/Method"' });
    }
    if (given(config.service)) issues.push({ key: at('service'), message: 'belongs to HEALTH mode; BEHAVIOR calls request.grpcConfig.method' });
    if (config.serviceDefinition === 'PROTO_FILE' && !given(config.protoContent)) {
      issues.push({ key: at('protoContent'), message: 'is required when serviceDefinition is PROTO_FILE' });
    }
    const importProblem = given(config.protoContent) ? protoImportProblem(String(config.protoContent)) : undefined;
    if (importProblem) issues.push({ key: at('protoContent'), message: importProblem });
    if (given(config.message) && !String(config.message).includes('{{')) {
      const problem = messageProblem(String(config.message));
      if (problem) issues.push({ key: at('message'), message: problem });
    }
  } else {
    for (const key of ['method', 'serviceDefinition', 'protoContent', 'message']) {
      if (given(config[key])) issues.push({ key: at(key), message: 'belongs to BEHAVIOR mode; HEALTH mode asks grpc.health.v1.Health/Check' });
    }
  }
  (config.metadata ?? []).forEach((m: { key?: string; value?: string }, i: number) => {
    const key = String(m.key ?? '');
    if (!isGrpcMetadataKey(key)) {
      issues.push({ key: at(`metadata.${i}.key`), message: 'must be letters, digits, "-", "_" or "." and not start with "grpc-"' });
    } else if (key.toLowerCase().endsWith('-bin') && !BASE64.test(String(m.value ?? ''))) {
      issues.push({ key: at(`metadata.${i}.value`), message: 'must be base64 for a "-bin" key' });
    } else if (/[\r\n\0]/.test(String(m.value ?? ''))) {
      issues.push({ key: at(`metadata.${i}.value`), message: 'must not contain line breaks or NUL' });
    }
  });
  (request.assertions ?? []).forEach((a: { source?: string; comparison?: string; target?: unknown }, i: number) => {
    if (a.source !== 'GRPC_HEALTHCHECK_STATUS') return;
    if (mode !== 'HEALTH') {
      issues.push({ key: `request.assertions.${i}.source`, message: 'GRPC_HEALTHCHECK_STATUS applies in HEALTH mode only' });
    } else if (a.comparison !== 'EQUALS' && a.comparison !== 'NOT_EQUALS') {
      issues.push({ key: `request.assertions.${i}.comparison`, message: 'must be EQUALS or NOT_EQUALS for GRPC_HEALTHCHECK_STATUS' });
    } else if (!HEALTH_TARGETS.includes(String(a.target ?? ''))) {
      issues.push({ key: `request.assertions.${i}.target`, message: 'must be a serving status number: 0 UNKNOWN, 1 SERVING, 2 NOT_SERVING, 3 SERVICE_UNKNOWN' });
    }
  });
  return issues;
}

function messageProblem(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? undefined : 'must be a JSON object';
  } catch {
    return 'must be JSON (the request message as a JSON object)';
  }
}
