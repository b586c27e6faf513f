import type { Client, Metadata, MethodDefinition, ServiceError } from '@grpc/grpc-js';
import { loadFileDescriptorSetFromBuffer, type PackageDefinition } from '@grpc/proto-loader';
import { readFileDescriptorImports, toFileDescriptorSet } from '../../domain/file-descriptor-imports.js';
import { PROTO_OPTIONS, reflectionDefinition } from './load-grpc-definitions.js';

/** Files fetched at most for one service: a bound against a server that keeps naming new imports. */
const MAX_FILES = 200;

type Reflection = MethodDefinition<Record<string, unknown>, Record<string, any>>;

/** What the server's reflection says about a service: its types and the methods it offers. */
export interface ReflectedService {
  definition: PackageDefinition;
  /** Every method of the files fetched, as `package.Service/Method`. */
  discoveredMethods: string[];
}

/**
 * Asks the server's reflection service (v1, else v1alpha) for the file defining `service` and the
 * files it imports, and loads them. Throws the gRPC error of the reflection call (UNIMPLEMENTED:
 * the server offers no reflection) or an Error when a descriptor cannot be read.
 */
export async function resolveByReflection(client: Client, service: string, metadata: Metadata, deadline: Date): Promise<ReflectedService> {
  let method = reflectionMethod('v1');
  let files: Map<string, Buffer>;
  try {
    files = await fetchFiles(client, method, service, metadata, deadline);
  } catch (err) {
    if ((err as Partial<ServiceError>).code !== 12) throw err;
    method = reflectionMethod('v1alpha');
    files = await fetchFiles(client, method, service, metadata, deadline);
  }
  const definition = loadFileDescriptorSetFromBuffer(Buffer.from(toFileDescriptorSet([...files.values()])), PROTO_OPTIONS);
  return { definition, discoveredMethods: methodsOf(definition) };
}

/** `package.Service/Method` of every method of a package definition. */
export function methodsOf(definition: PackageDefinition): string[] {
  const out: string[] = [];
  for (const entry of Object.values(definition)) {
    if ('format' in entry) continue;
    for (const m of Object.values(entry)) {
      if (typeof (m as { path?: unknown }).path === 'string') out.push((m as { path: string }).path.replace(/^\//, ''));
    }
  }
  return out;
}

function reflectionMethod(version: 'v1' | 'v1alpha'): Reflection {
  const service = reflectionDefinition(version)[`grpc.reflection.${version}.ServerReflection`] as Record<string, Reflection>;
  return service.ServerReflectionInfo!;
}

async function fetchFiles(client: Client, method: Reflection, service: string, metadata: Metadata, deadline: Date): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const add = (response: Record<string, any>) => {
    for (const bytes of (response.fileDescriptorResponse?.fileDescriptorProto ?? []) as Buffer[]) {
      const { name } = readFileDescriptorImports(bytes);
      if (!files.has(name)) files.set(name, bytes);
    }
  };
  add(await ask(client, method, { fileContainingSymbol: service }, metadata, deadline));
  for (;;) {
    const missing = [...files.values()].flatMap((b) => readFileDescriptorImports(b).dependencies).find((d) => !files.has(d));
    if (!missing) return files;
    if (files.size >= MAX_FILES) throw new Error(`server reflection named more than ${MAX_FILES} files for ${service}`);
    const before = files.size;
    add(await ask(client, method, { fileByFilename: missing }, metadata, deadline));
    if (files.size === before) throw new Error(`server reflection did not return ${missing}, which ${service} imports`);
  }
}

/** One request on the reflection stream; a reflection error response becomes an Error with its message. */
function ask(client: Client, method: Reflection, request: Record<string, unknown>, metadata: Metadata, deadline: Date): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const call = client.makeBidiStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, metadata, { deadline });
    call.on('data', (response: Record<string, any>) => {
      if (settled) return;
      settled = true;
      call.cancel();
      const error = response.errorResponse;
      if (error) reject(Object.assign(new Error(`server reflection: ${error.errorMessage || 'error'} (${JSON.stringify(request)})`), { code: error.errorCode }));
      else resolve(response);
    });
    call.on('error', (err) => {
      if (!settled) {
        settled = true;
        reject(err);
      }
    });
    call.on('end', () => {
      if (!settled) {
        settled = true;
        reject(new Error('server reflection ended without an answer'));
      }
    });
    call.write(request);
    call.end();
  });
}
