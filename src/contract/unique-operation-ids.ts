const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * One route serving several methods (`GET|POST /ping/{token}`) shares one operation object, and so
 * one operationId: each method but the first in `POST, PUT, PATCH, DELETE, GET` order gets its own
 * copy named `<operationId>By<Method>` (`pingHeartbeat`, `pingHeartbeatByGet`).
 */
export function withUniqueOperationIds<T extends { paths?: Record<string, Record<string, any>> }>(doc: T): T {
  for (const item of Object.values(doc.paths ?? {})) {
    const byOperation = new Map<unknown, string[]>();
    for (const method of METHODS) {
      const op = item[method];
      if (op && typeof op === 'object') byOperation.set(op, [...(byOperation.get(op) ?? []), method]);
    }
    for (const [op, methods] of byOperation) {
      const operationId = (op as { operationId?: string }).operationId;
      if (methods.length < 2 || !operationId) continue;
      const order = ['post', 'put', 'patch', 'delete', 'get', 'head', 'options', 'trace'];
      const [first, ...rest] = [...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
      item[first!] = op;
      for (const method of rest) {
        item[method] = { ...(op as object), operationId: `${operationId}By${method[0]!.toUpperCase()}${method.slice(1)}` };
      }
    }
  }
  return doc;
}
